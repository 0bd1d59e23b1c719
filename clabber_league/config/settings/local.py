"""Development on one machine: ``make run``. Debug on unless DJANGO_DEBUG says otherwise.

On the club's Wi-Fi (``make run HOST=0.0.0.0``, ``make run-https``) the laptop's LAN
address and name are accepted as hosts and CSRF origins too (``lan.py``)."""

from .base import *  # noqa: F403
from .base import ALLOWED_HOSTS, CSRF_TRUSTED_ORIGINS, env_bool
from .lan import lan_hosts, lan_origins

DEBUG = env_bool("DJANGO_DEBUG", True)

_LAN_HOSTS = lan_hosts()
ALLOWED_HOSTS = [*ALLOWED_HOSTS, *(h for h in _LAN_HOSTS if h not in ALLOWED_HOSTS)]
CSRF_TRUSTED_ORIGINS = [*CSRF_TRUSTED_ORIGINS, *lan_origins(_LAN_HOSTS)]
