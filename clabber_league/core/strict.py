"""Strict JSON input: a value of the wrong JSON type is refused, with its field named.

DRF's fields coerce what a form would send: ``0``, ``"yes"`` and ``"1"`` pass as booleans,
``"5"`` and ``5.0`` as whole numbers, ``12`` as a string. The API reads JSON only
(``core.text.StrictJSONParser``), where every value has its type, so such a value is a
client's mistake: :func:`install` (run once, from ``CoreConfig.ready``) makes the primitive
fields of every serializer (declared or built from a model, nested or in a list) refuse
it with "Must be true or false, not 0." under the field's name, before their own checks.

Data that did not come as JSON (a query string, a form: ``QueryDict``) keeps DRF's
coercion, where every value is text.
"""

from typing import Any

from django.http import QueryDict
from rest_framework import serializers

#: Field class, the JSON types it takes, what to say otherwise.
STRICT: list[tuple[type[serializers.Field], tuple[type, ...], str]] = [
    (serializers.BooleanField, (bool,), "Must be true or false, not {value}."),
    (serializers.IntegerField, (int,), "Must be a whole number, not {value}."),
    (serializers.FloatField, (int, float), "Must be a number, not {value}."),
    (serializers.CharField, (str,), "Must be a string, not {value}."),
]
_INSTALLED = "_clabber_strict"


def shown(value: Any) -> str:
    """The value as the client sent it, in JSON's spelling, cut short."""
    import json

    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def from_json(field: serializers.Field) -> bool:
    """The data this field reads came as JSON (not a query string or a form)."""
    data = getattr(field.root, "initial_data", None)
    return data is not None and not isinstance(data, QueryDict)


def _strict(cls: type[serializers.Field], types: tuple[type, ...], message: str) -> None:
    plain = cls.to_internal_value

    def to_internal_value(self: serializers.Field, data: Any) -> Any:
        wrong = not isinstance(data, types) or (isinstance(data, bool) and bool not in types)
        if wrong and from_json(self):
            raise serializers.ValidationError(message.format(value=shown(data)), code="invalid")
        return plain(self, data)

    to_internal_value.__doc__ = plain.__doc__
    setattr(to_internal_value, _INSTALLED, True)
    cls.to_internal_value = to_internal_value  # type: ignore[method-assign]


def install() -> None:
    for cls, types, message in STRICT:
        if not getattr(cls.to_internal_value, _INSTALLED, False):
            _strict(cls, types, message)
