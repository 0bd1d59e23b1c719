"""The pages: a club's admin downloads a results file; an officer uploads one and reads it;
a bad file lists its problems; another federation's officer gets 404."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from clabber_league.exchange import building
from clabber_league.exchange.models import ResultFile
from clabber_league.federation.models import Federation, Officer
from tests.exchange.files import night_file
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_clubs_admin_downloads_a_finished_fixtures_file(club, fixture, secretary, scorer):
    client = _client(secretary)
    page = client.get(f"/clubs/{club.slug}/exchange/")
    assert page.status_code == 200
    url = f"/clubs/{club.slug}/exchange/fixture/{fixture.pk}.json"
    assert url in page.content.decode()
    download = client.get(url)
    assert download["Content-Disposition"].endswith(f'fixture-{fixture.pk}.json"')
    assert json.loads(download.content)["event"]["key"] == f"fixture-{fixture.pk}"
    xml = client.get(f"/clubs/{club.slug}/exchange/fixture/{fixture.pk}.xml")
    assert building.from_xml(xml.content)["event"]["kind"] == "fixture"
    assert _client(scorer).get(f"/clubs/{club.slug}/exchange/").status_code == 403


def test_an_officer_uploads_a_file_and_reads_it(club, federation, officer):
    client = _client(officer)
    upload = SimpleUploadedFile(
        "night.json", json.dumps(night_file(club.slug, numbers={1: "NKU-77"})).encode()
    )
    response = client.post(f"/federations/{federation.slug}/results/", {"file": upload})
    result_file = ResultFile.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/federations/{federation.slug}/results/{result_file.pk}/"
    page = client.get(response["Location"]).content.decode()
    assert "Tuesday night" in page and "NKU-77" in page and "Unknown number" in page


def test_a_bad_upload_lists_every_problem_and_imports_nothing(club, federation, officer):
    payload = night_file("not-a-member", numbers={1: "NKU-1", 2: "NKU-1"})
    upload = SimpleUploadedFile("night.json", json.dumps(payload).encode())
    response = _client(officer).post(f"/federations/{federation.slug}/results/", {"file": upload})
    assert response.status_code == 400
    text = response.content.decode()
    assert "2 problems" in text and "players[1].numbers" in text and "sender.club.slug" in text
    assert not ResultFile.objects.exists()


def test_another_federations_officer_and_a_member_get_404(club, federation, officer, secretary):
    other = Federation.objects.create(name="Other Union", slug="kbn")
    stranger = UserFactory(username="kbn-officer")
    Officer.objects.create(federation=other, user=stranger)
    upload = SimpleUploadedFile(
        "night.json", json.dumps(night_file(club.slug, numbers={})).encode()
    )
    _client(officer).post(f"/federations/{federation.slug}/results/", {"file": upload})
    pk = ResultFile.objects.get().pk
    for user in (stranger, secretary):
        client = _client(user)
        assert client.get(f"/federations/{federation.slug}/results/").status_code == 404
        assert client.get(f"/federations/{federation.slug}/results/{pk}/").status_code == 404
    assert _client(stranger).get(f"/federations/kbn/results/{pk}/").status_code == 404
    anonymous = Client().get(f"/federations/{federation.slug}/results/")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]


def test_the_federation_home_shows_its_officers_the_results_files(club, federation, officer):
    upload = SimpleUploadedFile(
        "night.json", json.dumps(night_file(club.slug, numbers={1: "NKU-77"})).encode()
    )
    _client(officer).post(f"/federations/{federation.slug}/results/", {"file": upload})
    home = _client(officer).get(f"/federations/{federation.slug}/").content.decode()
    assert "1 provisional results file." in home and "1 number to check." in home
    assert f"/federations/{federation.slug}/results/" in home
    visitor = Client().get(f"/federations/{federation.slug}/").content.decode()
    assert "provisional results" not in visitor
