"""The rules page: every rule set and its options, generated from the rule-set data."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from clabber_league.rules import catalog


def rules_page(request: HttpRequest) -> HttpResponse:
    return render(request, "calculator/rules.html", {"rulesets": catalog()})
