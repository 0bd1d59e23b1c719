"""How the OpenAPI schema describes every operation, so new endpoints follow by themselves.

``AutoSchema`` (the ``DEFAULT_SCHEMA_CLASS``) adds to each operation:

- its **tag**, the app it lives in (``clubs``, ``leagues``, ``scheduling``, ``games``,
  ``standings``; the calculator's is ``rules``): a new app's endpoints get their own tag;
- the **error statuses** it can answer, each with the one error body (``Problem``, as
  ``application/problem+json``):
  401/403 where a token is read, 400/413/415 with a body, 400 with a query or path, 404 with a path
  parameter or paging, 409 on writes to club data, 422 with ``Idempotency-Key``, 429 where
  it is throttled, and 500/503 everywhere;
- the ``API-Version`` request header (``core.versions``) on every operation;
- the ``Idempotency-Key`` header on views marked :func:`clabber_league.core.idempotency.idempotent`;
- the **response headers** each answer carries (``HEADERS``): ``X-Request-ID`` on all,
  ``WWW-Authenticate`` on 401, ``RateLimit``/``RateLimit-Policy`` where throttled,
  ``Retry-After`` on 409/429/503, ``Location`` on 201 and 202 (``core.middleware``);
- ``ETag`` and ``Cache-Control`` on the 200 and 304 of views marked
  :func:`clabber_league.core.conditional.conditional`, with their ``If-None-Match`` header;
- ``security: {}`` (no authentication needed) on reads of club data, which a public club
  answers to anyone.

``postprocess_enum_varnames`` gives every enum readable names (``x-enum-varnames``) for
generated clients.
"""

import json
import re
from typing import Any

from drf_spectacular import openapi
from rest_framework import permissions

ERROR_DESCRIPTIONS = {
    "400": "Invalid input: each error names its field; nothing was saved.",
    "401": "No token, or a bad one (see WWW-Authenticate).",
    "403": "Your role in this club (or your API token's scope) does not allow this.",
    "404": "No such object in this club, no such club (to you), or no such page.",
    "409": "A conflict with what is stored (a duplicate, something still in use, "
    "a game already finished), or with another request changing the same records at that "
    "moment (a deadlock: nothing was saved; try again after Retry-After seconds).",
    "413": "The request body is too large.",
    "415": "The request body is not application/json.",
    "422": "This Idempotency-Key was used for another request.",
    "429": "Too many requests: wait Retry-After seconds.",
    "500": "A failure on our side; nothing was saved.",
    "503": "The database is not reachable; retry after Retry-After seconds.",
}
#: The response headers the API sends, as documented on each response that carries them.
HEADERS: dict[str, dict[str, Any]] = {
    "X-Request-ID": {
        "schema": {"type": "string"},
        "description": "This request's id: quote it when asking about an answer; it finds the "
        "request in the service's logs. A client's own X-Request-ID (1 to 64 letters, digits, "
        "- _ .) is kept; on every answer, pages and errors included.",
        "required": True,
    },
    "API-Version": {
        "schema": {"type": "string"},
        "description": "The dated API version this answer was made for (the request's "
        "API-Version, else the current one).",
        "required": True,
    },
    "Location": {
        "schema": {"type": "string"},
        "description": "Where what was created (or queued) is read.",
    },
    "WWW-Authenticate": {
        "schema": {"type": "string"},
        "description": "How to authenticate: ``Token`` (``Authorization: Token <key>``).",
    },
    "RateLimit": {
        "schema": {"type": "string"},
        "description": 'Where the caller stands: ``"<scope>";r=<requests left>;t=<seconds until '
        "one frees>`` (IETF httpapi RateLimit header fields).",
    },
    "RateLimit-Policy": {
        "schema": {"type": "string"},
        "description": '``"<scope>";q=<requests>;w=<window in seconds>``.',
    },
    "Retry-After": {
        "schema": {"type": "integer", "minimum": 0},
        "description": "Seconds to wait before sending the request again.",
    },
    "ETag": {
        "schema": {"type": "string"},
        "description": "This answer's version (``core.conditional``): send it back in "
        "If-None-Match to be answered 304 while it has not changed.",
        "required": True,
    },
    "Cache-Control": {
        "schema": {"type": "string"},
        "description": "``private, no-cache``: keep the answer, but ask again each time with "
        "If-None-Match.",
        "required": True,
    },
}
WRITES = {"POST", "PUT", "PATCH", "DELETE"}
#: The app (``clabber_league.<app>``) whose tag differs from its name.
TAG_OF_APP = {"calculator": "rules", "core": "clubs"}


class AutoSchema(openapi.AutoSchema):
    def get_tags(self) -> list[str]:
        parts = type(self.view).__module__.split(".")
        if len(parts) > 1 and parts[0] == "clabber_league":
            return [TAG_OF_APP.get(parts[1], parts[1])]
        return super().get_tags()

    def get_summary(self) -> str | None:
        """A summary for every operation: the one given, else "<verb> <thing>"."""
        summary = super().get_summary()
        if summary:
            return summary
        action = getattr(self.view, "action", None) or self.method.lower()
        model = getattr(getattr(self.view, "queryset", None), "model", None)
        name = str(model._meta.verbose_name) if model is not None else "item"
        plural = str(model._meta.verbose_name_plural) if model is not None else "items"
        verbs = {
            "list": f"List {plural}",
            "retrieve": f"Get a {name}",
            "create": f"Create a {name}",
            "update": f"Replace a {name}",
            "partial_update": f"Change part of a {name}",
            "destroy": f"Delete a {name}",
        }
        if action in verbs:
            return verbs[action]
        return f"{action.replace('_', ' ').capitalize()} ({name})"

    def get_auth(self) -> list[dict[str, Any]]:
        auths = super().get_auth()
        from clabber_league.clubs.api_base import ClubPermission

        perms = [type(p) for p in self.view.get_permissions()]
        public_read = self.method in permissions.SAFE_METHODS and ClubPermission in perms
        if public_read and {} not in auths:
            auths.append({})  # a public club's data is read without logging in
        return auths

    def _is_list_view(self, serializer: Any = None) -> bool:
        """A view whose ``list`` answers one object (``list_is_one_object = True``, as a
        team's calendar link) is typed as that object, not as a page of them."""
        if getattr(self.view, "list_is_one_object", False):
            return False
        return super()._is_list_view(serializer)

    def _get_format_parameters(self) -> list[dict[str, Any]]:
        """No ``?format=`` parameter: an operation answers one media type, and a CSV is an
        operation of its own. (The leaderboards' and ratings' older ``?format=csv`` still
        answers, for clients written before; it is not offered to new ones.)"""
        return []

    def get_override_parameters(self) -> list[Any]:
        from drf_spectacular.types import OpenApiTypes
        from drf_spectacular.utils import OpenApiParameter

        from . import versions
        from .idempotency import IDEMPOTENCY_PARAMETER, is_idempotent

        api_version = OpenApiParameter(
            versions.HEADER,
            OpenApiTypes.STR,
            OpenApiParameter.HEADER,
            required=False,
            enum=list(versions.VERSIONS),
            default=versions.CURRENT,
            description=f"The dated API version the client is written for (default "
            f"{versions.CURRENT}); see docs/api-versions.md.",
        )
        parameters = list(super().get_override_parameters())
        if is_idempotent(self.view, self.method):
            parameters.append(IDEMPOTENCY_PARAMETER)
        from .conditional import IF_NONE_MATCH_PARAMETER, is_conditional

        if is_conditional(self.view, self.method):
            parameters.append(IF_NONE_MATCH_PARAMETER)
        parameters.append(api_version)
        return parameters

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        from .api import PROBLEM_CONTENT_TYPE, ErrorsSerializer

        ref = self.resolve_serializer(ErrorsSerializer, "response").ref
        responses = operation.setdefault("responses", {})
        for code in self._error_statuses(operation):
            if code not in responses:
                responses[code] = {"description": ERROR_DESCRIPTIONS[code]}
        for code, response in responses.items():
            if code >= "400":  # every error is a problem (core.api), declared or not
                response["content"] = {PROBLEM_CONTENT_TYPE: {"schema": ref}}
                if not response.get("description"):
                    response["description"] = ERROR_DESCRIPTIONS.get(code, "")
        from .conditional import NOT_MODIFIED_DESCRIPTION, is_conditional

        conditional = is_conditional(self.view, self.method)
        if conditional:  # ETag on the 200, 304 for a matching If-None-Match
            responses.setdefault("304", {"description": NOT_MODIFIED_DESCRIPTION})
        throttled = bool(self.view.get_throttles())
        for code, response in responses.items():
            response.setdefault("headers", {}).update(self._response_headers(code, throttled))
            if conditional and code in ("200", "304"):
                response["headers"]["ETag"] = HEADERS["ETag"]
                response["headers"]["Cache-Control"] = HEADERS["Cache-Control"]
        operation["responses"] = dict(sorted(responses.items()))
        return operation

    def _response_headers(self, code: str, throttled: bool) -> dict[str, Any]:
        """The headers an answer with this status carries (``HEADERS``)."""
        names = ["X-Request-ID", "API-Version"]
        if code in {"201", "202"}:
            names.append("Location")  # core.middleware: where the view or its route says
        if code == "401":
            names.append("WWW-Authenticate")
        if throttled and (code < "300" or code == "429"):
            names += ["RateLimit", "RateLimit-Policy"]
        if code in {"409", "429", "503"}:
            names.append("Retry-After")
        return {name: HEADERS[name] for name in names}

    def _error_statuses(self, operation: dict[str, Any]) -> list[str]:
        from .idempotency import is_idempotent

        codes = ["500", "503"]
        has_body = "requestBody" in operation
        has_path = any(p.get("in") == "path" for p in operation.get("parameters", []))
        if self.view.get_authenticators():
            codes += ["401", "403"]
        if has_body or self.method in WRITES:
            codes += ["400", "413", "415"]
        else:  # an unknown API-Version on any; hostile text in the path or a query too
            codes.append("400")
        if has_path or any(p.get("name") == "page" for p in operation.get("parameters", [])):
            codes.append("404")
        if self.method in WRITES and ("club_slug" in self.path or "federation_slug" in self.path):
            codes.append("409")
        if is_idempotent(self.view, self.method):
            codes.append("422")
        if self.view.get_throttles():
            codes.append("429")
        return codes


#: The path parameters' one convention: ``{club_slug}`` (a string), ``{id}`` for the object
#: the path names and ``{<thing>_id}`` for a parent (``{game_id}``) or an object reached
#: through another's id (``ratings/{player_id}/``), all integers.
ID_SCHEMA = {"type": "integer", "minimum": 1, "maximum": 2**63 - 1}


def postprocess_path_parameters(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Every ``id`` and ``<thing>_id`` path parameter is a positive integer (a parent's is
    matched by ``[0-9]+``, an object's looked up by its key); ``club_slug`` is described
    once."""
    for item in result.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", []):
                if parameter.get("in") != "path":
                    continue
                name = parameter["name"]
                if name == "id" or name.endswith("_id"):
                    parameter["schema"] = dict(ID_SCHEMA)
                    thing = name.removesuffix("_id").replace("_", " ")
                    parameter.setdefault(
                        "description",
                        "The object's id." if name == "id" else f"The {thing}'s id.",
                    )
                elif name == "club_slug":
                    parameter["schema"] = {"type": "string"}
                    parameter.setdefault("description", "The club's slug, as in its page's URL.")
                elif name == "federation_slug":
                    parameter["schema"] = {"type": "string"}
                    parameter.setdefault(
                        "description", "The federation's slug, as in its page's URL."
                    )
    return result


def postprocess_version(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """The schema is of the current dated API version (``core.versions``)."""
    from .versions import CURRENT

    result.setdefault("info", {})["version"] = CURRENT
    return result


def request_examples() -> dict[str, Any]:
    """Every app's ``REQUEST_EXAMPLES`` (in its ``api`` module), by component name."""
    from importlib import import_module

    from django.apps import apps

    examples: dict[str, Any] = {}
    for config in apps.get_app_configs():
        if not config.name.startswith("clabber_league."):
            continue
        try:
            module = import_module(f"{config.name}.api")
        except ModuleNotFoundError:
            continue
        examples.update(getattr(module, "REQUEST_EXAMPLES", {}))
    return examples


def postprocess_request_examples(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """An example on every write: the app's example for the request body's component (the
    PATCH variant ``Patched<Name>`` uses ``<Name>``'s), unless the view gave its own."""
    examples = request_examples()
    for item in result.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            content = operation.get("requestBody", {}).get("content", {})
            body = content.get("application/json")
            if body is None or body.get("examples"):
                continue
            name = body.get("schema", {}).get("$ref", "").rsplit("/", 1)[-1]
            example = examples.get(name.removeprefix("Patched"))
            if example is not None:
                body["examples"] = {"Example": {"value": example}}
    return result


def enum_varname(value: Any) -> str:
    name = re.sub(r"[^0-9A-Za-z]+", "_", str(value)).strip("_").upper()
    if not name:
        return "BLANK"
    return f"VALUE_{name}" if name[0].isdigit() else name


def _choice_labels(description: str) -> dict[str, str]:
    """drf-spectacular's choice list (``* `0` - Monday``) as ``{"0": "Monday"}``."""
    return dict(re.findall(r"^\* `([^`]*)` - (.+)$", description, flags=re.MULTILINE))


def postprocess_enum_varnames(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Every enum gets ``x-enum-varnames``: readable member names in generated clients
    (``RoleEnum.SCORER``; a whole-number choice by its label, ``WeekdayEnum.MONDAY``)."""

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            values = node.get("enum")
            if isinstance(values, list) and values and "x-enum-varnames" not in node:
                labels = _choice_labels(node.get("description", ""))
                names = [
                    enum_varname(labels.get(str(v), v) if isinstance(v, int) else v) for v in values
                ]
                plain = all(isinstance(v, (str, int)) for v in values)
                if plain and len(set(names)) == len(names):
                    node["x-enum-varnames"] = names
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(result.get("components", {}))
    walk(result.get("paths", {}))
    return result


def postprocess_request_defaults(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """A request's optional field with a default stays optional in every generated client.

    openapi-typescript (``defaultNonNullable``, on by default) makes a property with a
    ``default`` required in a component schema, so a TypeScript program could not leave
    ``best_of`` out of a ``CupCreateRequest``. In the request components
    (``COMPONENT_SPLIT_REQUEST``'s ``<Name>Request``) the default is said in the field's
    description instead; the server applies it when the field is left out.
    """
    for name, component in result.get("components", {}).get("schemas", {}).items():
        if not name.endswith("Request"):
            continue
        required = set(component.get("required", ()))
        for field, schema in component.get("properties", {}).items():
            if field in required or "default" not in schema:
                continue
            default = schema.pop("default")
            said = f"Default when left out: {json.dumps(default)}."
            text = schema.get("description", "")
            schema["description"] = f"{text}\n\n{said}" if text else said
    return result


def postprocess_version_component(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """The ``API-Version`` header's values are one component, ``APIVersion``: a generated
    client has one type of versions, not one per operation."""
    from .versions import HEADER

    schema = None
    for item in result.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", []):
                if parameter.get("in") == "header" and parameter.get("name") == HEADER:
                    schema = parameter["schema"]
                    parameter["schema"] = {"$ref": "#/components/schemas/APIVersion"}
    if schema is not None:
        schema = {k: v for k, v in schema.items() if k != "default"}
        schema["x-enum-varnames"] = [enum_varname(v) for v in schema.get("enum", ())]
        schema["description"] = "A dated version of the API (docs/api-versions.md)."
        result.setdefault("components", {}).setdefault("schemas", {})["APIVersion"] = schema
    return result


#: core/text.py's rules as patterns (ECMA 262 and Python alike): a name or a query
#: parameter is one line without control characters; other text keeps tab and line breaks.
ONE_LINE_PATTERN = r"^[^\x00-\x1f\x7f-\x9f\u2028\u2029]*$"
TEXT_PATTERN = r"^[^\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]*$"
#: core/idempotency.py's rule: printable ASCII, no space at either end (HTTP trims it).
IDEMPOTENCY_KEY_PATTERN = r"^[!-~]([ -~]*[!-~])?$"


def _plain_string(schema: dict[str, Any]) -> bool:
    return (
        schema.get("type") == "string"
        and not {"enum", "format", "pattern", "$ref"} & schema.keys()
        and not schema.get("readOnly")
    )


def _text_rules(schema: Any, field: str) -> None:
    """``pattern`` on every plain string of a request schema, by core/text.py's rules."""
    if not isinstance(schema, dict):
        return
    if _plain_string(schema):
        from .text import is_single_line_field

        schema["pattern"] = ONE_LINE_PATTERN if is_single_line_field(field) else TEXT_PATTERN
    for name, sub in schema.get("properties", {}).items():
        _text_rules(sub, name)
    for key in ("items", "additionalProperties"):
        _text_rules(schema.get(key), field)
    for key in ("allOf", "oneOf", "anyOf"):
        for sub in schema.get(key, ()):
            _text_rules(sub, field)


def postprocess_text_rules(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """The rules every request's text is held to (core/text.py, core/idempotency.py) are
    in the schema, so a client or a fuzzer knows them before the server refuses: request
    bodies' strings and string query parameters get a ``pattern``, ``Idempotency-Key`` its
    length and characters."""
    from .idempotency import HEADER as IDEMPOTENCY_HEADER
    from .idempotency import KEY_MAX_LENGTH

    for name, component in result.get("components", {}).get("schemas", {}).items():
        if name.endswith("Request"):
            _text_rules(component, "")
    for item in result.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            for parameter in operation.get("parameters", []):
                schema = parameter.get("schema", {})
                if parameter.get("in") == "query":
                    _text_rules(schema, "name")  # every query parameter is one line
                    if schema.get("type") == "array":
                        _text_rules(schema.get("items"), "name")
                elif parameter.get("name") == IDEMPOTENCY_HEADER:
                    schema.update(
                        minLength=1, maxLength=KEY_MAX_LENGTH, pattern=IDEMPOTENCY_KEY_PATTERN
                    )
    return result
