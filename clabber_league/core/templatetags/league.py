"""Small template helpers used across pages."""

from typing import Any

from django import template

register = template.Library()


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        return ""


@register.filter
def field_errors(form: Any, name: str) -> list[str]:
    return list(form.errors.get(name, []))


@register.filter
def join_if_list(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return " ".join(str(v) for v in value) if value else "none"
    return str(value)
