from django.apps import AppConfig


class CalculatorConfig(AppConfig):
    name = "clabber_league.calculator"
    label = "calculator"
