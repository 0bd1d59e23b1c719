"""The club laptop on the club's Wi-Fi: the development settings accept the address phones
use for it (``make run HOST=0.0.0.0``, ``make run-https``)."""

import importlib
import sys

from clabber_league.config.settings import lan


def test_the_bound_address_and_the_lan_address_are_hosts_and_origins(monkeypatch):
    monkeypatch.setattr(lan, "lan_address", lambda: "10.0.0.7")
    env = {"CLABBER_LAN_HOST": "192.168.1.20", "PORT": "8000", "HTTPS_PORT": "8443"}

    hosts = lan.lan_hosts(env)
    origins = lan.lan_origins(hosts, env)

    assert hosts[:2] == ["192.168.1.20", "10.0.0.7"]
    assert "http://192.168.1.20:8000" in origins
    assert "https://10.0.0.7:8443" in origins


def test_binding_every_address_adds_no_wildcard(monkeypatch):
    monkeypatch.setattr(lan, "lan_address", lambda: None)
    hosts = lan.lan_hosts({"CLABBER_LAN_HOST": "0.0.0.0"})
    assert "0.0.0.0" not in hosts and "*" not in hosts


def test_the_local_settings_take_the_lan_host(monkeypatch):
    monkeypatch.setenv("CLABBER_LAN_HOST", "192.168.1.20")
    monkeypatch.setenv("HTTPS_PORT", "8443")
    sys.modules.pop("clabber_league.config.settings.local", None)
    local = importlib.import_module("clabber_league.config.settings.local")
    assert "192.168.1.20" in local.ALLOWED_HOSTS
    assert "https://192.168.1.20:8443" in local.CSRF_TRUSTED_ORIGINS
    assert "localhost" in local.ALLOWED_HOSTS
