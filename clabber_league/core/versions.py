"""The API's versions: a dated ``API-Version`` request header, echoed on every answer.

A client sends ``API-Version: 2026-12-05`` (a date in :data:`VERSIONS`); without the
header it gets :data:`CURRENT`. An unknown version is a 400 problem
(``unknown_api_version``) naming the header. Every ``/api/`` answer carries the version it
was made for in its own ``API-Version`` header, and the schema's ``info.version`` is
:data:`CURRENT`. docs/api-versions.md has the changelog and the deprecation rule.
"""

HEADER = "API-Version"
#: Every version, oldest first, with what changed in it (docs/api-versions.md's changelog).
VERSIONS: dict[str, str] = {
    "2026-12-05": "The first dated version. Errors are RFC 9457 problems "
    "(application/problem+json) with a code; the errors list stays as a member of the "
    "problem. Wrong JSON types are refused.",
}
CURRENT = list(VERSIONS)[-1]
UNKNOWN_VERSION = "Unknown API version {value}; this service has {versions}."


def requested(value: str | None) -> str | None:
    """The version a request asks for (the current one without the header), or None when
    it names one this service does not have."""
    if value is None or not value.strip():
        return CURRENT
    value = value.strip()
    return value if value in VERSIONS else None


def version_of(request: object) -> str:
    """The version a request was answered for (set by ``core.middleware``)."""
    return getattr(request, "api_version", None) or CURRENT
