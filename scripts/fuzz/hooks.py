"""Schemathesis hooks for scripts/fuzz-api.sh (loaded through SCHEMATHESIS_HOOKS).

Right before each request is sent, a valid body `externalId` and a valid `Idempotency-Key` header get
a suffix unique to this process and request, so that:
  - a POST /api/v1/orders is not refused as DUPLICATE_EXTERNAL_ID because an earlier case drew the
    same externalId (Hypothesis draws short strings such as "0" again and again), and
  - an Idempotency-Key is never reused, so no request is answered 422 IDEMPOTENCY_KEY_REUSED or with a
    replay of another request.

A valid webhook `url` (POST /api/v1/webhooks, PATCH /api/v1/webhooks/{webhookId}) is replaced by the URL
of the fuzzing run's receiver on loopback (FUZZ_WEBHOOK_SINK), still valid by the document: the
service under fuzzing runs with WEBHOOK_ALLOW_PRIVATE_URLS=true, and its workers would otherwise send
requests to whatever hosts the generator made up. The receiver answers 410 Gone, so the service
disables each endpoint after its first delivery: with up to 20 endpoints in the dashboard, every order
the fuzzer creates would otherwise make 20 deliveries and their retries, a background load that slowed
the run on MongoDB past its time budget.

It also puts `from` and `to` in order when both are given and `from` is later (GET /api/v1/orders, the
reports, GET /api/v1/spend), and brings a report's `from` to its `to` when they are further apart than
the report allows (366 days; 31 by hour): the document says in prose that the service refuses these
(400), constraints between two parameters that JSON Schema cannot express, so Schemathesis would
report the refusal of a "valid" query. Likewise a token's `expiresAt` in the past (it must be in the
future, a rule about the time of the request) is moved to 2099, and a dashboard's `taxRate` within
0-100 is rounded to the 2 decimals the document allows in prose (a multipleOf 0.01 would be checked
in floating point by validators, and 7.25 is not a multiple of 0.01 there). And `after` of GET
/api/v1/orders, GET /api/v1/events and GET /api/v1/product-costs is dropped: a cursor or an event id
is accepted only when the service gave it (the tests walk them). The products report's range is kept
within its 366 days like the other reports'.

A value that is invalid by the OpenAPI document is left as it is, and a valid value stays valid (same
form and within the documented length), so negative cases stay negative and positive ones positive.
The hook runs at call time (`before_call`), so every send gets a fresh value, shrinking and replays
included, and the reproduction shown for a failure is the request that was actually sent.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import threading
import time
import urllib.request
import uuid

import schemathesis

_RUN = uuid.uuid4().hex[:8]
_COUNTER = itertools.count(1)
_LOCK = threading.Lock()

MAX_LEN = 255
# Idempotency-Key forms of the document (components/parameters/IdempotencyKey).
_VISIBLE_ASCII = re.compile(r"[\x21-\x7e]{1,255}")
_QUOTED = re.compile(r'"((?:[^"\\]|\\["\\])*)"')

_DATE_TIME = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(?:\.(\d{1,9}))?(?:Z|([+-])([01]\d|2[0-3]):([0-5]\d))"
)


def _days_from_civil(year: int, month: int, day: int) -> int | None:
    """Days since 1970-01-01 of a proleptic Gregorian date (year 0000 included); None if off the calendar."""
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    lengths = (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
    if not (1 <= month <= 12 and 1 <= day <= lengths[month - 1]):
        return None
    y = year - (month <= 2)
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def instant(value: object) -> int | None:
    """Nanoseconds since the Unix epoch of a DateTimeWithTimezone value; None if it is not one."""
    match = _DATE_TIME.fullmatch(value) if isinstance(value, str) else None
    if match is None:
        return None
    year, month, day, hour, minute, second, fraction, sign, off_h, off_m = match.groups()
    days = _days_from_civil(int(year), int(month), int(day))
    if days is None:
        return None
    seconds = days * 86400 + int(hour) * 3600 + int(minute) * 60 + int(second)
    if sign is not None:
        seconds -= (1 if sign == "+" else -1) * (int(off_h) * 3600 + int(off_m) * 60)
    return seconds * 10**9 + int((fraction or "").ljust(9, "0"))


_DAY_NS = 86400 * 10**9
_REPORTS = (
    "/api/v1/reports/breakdown",
    "/api/v1/reports/timeseries",
    "/api/v1/reports/products",
    "/api/v1/reports/uncosted-products",
)


def ordered_range(path: str, query: dict) -> dict:
    """`query` with `from` and `to` as the service's prose requires (see the module's text)."""
    if path == "/api/v1/spend":
        since, until = query.get("from"), query.get("to")
        if isinstance(since, str) and isinstance(until, str) and since > until:
            return {**query, "from": until, "to": since}
        return query
    since, until = instant(query.get("from")), instant(query.get("to"))
    if since is None or until is None:
        return query
    if since > until:
        query, since, until = {**query, "from": query["to"], "to": query["from"]}, until, since
    if path in _REPORTS:
        days = 31 if path.endswith("timeseries") and query.get("interval") == "hour" else 366
        if until - since > days * _DAY_NS:
            query = {**query, "from": query["to"]}
    return query


def _suffix() -> str:
    with _LOCK:
        n = next(_COUNTER)
    return f"~fz{_RUN}{n:x}"


def _with_suffix(value: str) -> str:
    """`value` with a unique suffix, cut so that the result has at most MAX_LEN characters."""
    suffix = _suffix()
    return value[: MAX_LEN - len(suffix)] + suffix


# Identifiers written with a leading `~` in paths (`.`, `..`, `~.`, ...) are left as they are, so that
# this escape is exercised too; a repeated one costs a 409, which Schemathesis accepts.
_DOT_SEGMENT = re.compile(r"~*\.{1,2}")


LOOPBACK_SINK = os.environ.get("FUZZ_WEBHOOK_SINK", "http://127.0.0.1:9/fuzz")
_URL_PATTERN: re.Pattern[str] | None = None


def _url_pattern() -> re.Pattern[str]:
    """The webhook URL pattern of the served document (components/schemas/CreateWebhookRequest), read once."""
    global _URL_PATTERN
    if _URL_PATTERN is None:
        with urllib.request.urlopen(f"{os.environ['FUZZ_BASE_URL']}/api/v1/openapi.json", timeout=10) as res:
            document = json.load(res)
        pattern = document["components"]["schemas"]["CreateWebhookRequest"]["properties"]["url"]["pattern"]
        # ECMAScript's `$` ends the string; Python's would also match before a final newline.
        _URL_PATTERN = re.compile(pattern[:-1] + r"\Z" if pattern.endswith("$") else pattern)
    return _URL_PATTERN


def sink_url(value: object) -> object:
    if isinstance(value, str) and len(value) <= 2048 and _url_pattern().search(value):
        return LOOPBACK_SINK
    return value


def unique_external_id(value: object) -> object:
    if isinstance(value, str) and 1 <= len(value) <= MAX_LEN and not _DOT_SEGMENT.fullmatch(value):
        return _with_suffix(value)
    return value


def unique_idempotency_key(value: object) -> object:
    if not isinstance(value, str):
        return value
    quoted = _QUOTED.fullmatch(value)
    if quoted is not None:
        key = re.sub(r'\\(["\\])', r"\1", quoted.group(1))
        if not _VISIBLE_ASCII.fullmatch(key):
            return value
        new = _with_suffix(key)
        return '"' + new.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if _VISIBLE_ASCII.fullmatch(value):
        # The suffix does not end with `"`, so the result is never mistaken for the quoted form.
        return _with_suffix(value)
    return value


@schemathesis.hook
def before_call(ctx, case, kwargs):
    cursored = ("/api/v1/orders", "/api/v1/events", "/api/v1/product-costs")
    if case.operation.path in cursored and case.method.upper() == "GET" and isinstance(case.query, dict) and "after" in case.query:
        case.query = {k: v for k, v in case.query.items() if k != "after"}
    ranged = ("/api/v1/orders", "/api/v1/spend", *_REPORTS)
    if case.operation.path in ranged and case.method.upper() == "GET" and isinstance(case.query, dict):
        case.query = ordered_range(case.operation.path, case.query)
    if case.operation.path == "/api/v1/orders" and case.method.upper() == "POST" and isinstance(case.body, dict):
        if "externalId" in case.body:
            new = unique_external_id(case.body["externalId"])
            if new is not case.body["externalId"]:
                case.body = {**case.body, "externalId": new}
    if case.operation.path == "/api/v1/orders/batch" and isinstance(case.body, dict) and isinstance(case.body.get("orders"), list):
        items = [
            {**item, "externalId": unique_external_id(item["externalId"])} if isinstance(item, dict) and "externalId" in item else item
            for item in case.body["orders"]
        ]
        case.body = {**case.body, "orders": items}
    if case.operation.path in ("/api/v1/webhooks", "/api/v1/webhooks/{webhookId}") and case.method.upper() in ("POST", "PATCH"):
        if isinstance(case.body, dict) and "url" in case.body:
            new = sink_url(case.body["url"])
            if new is not case.body["url"]:
                case.body = {**case.body, "url": new}
    if case.operation.path == "/admin/v1/dashboards/{dashboardId}" and isinstance(case.body, dict):
        rate = case.body.get("taxRate")
        if isinstance(rate, float) and 0 <= rate <= 100 and round(rate, 2) != rate:
            case.body = {**case.body, "taxRate": round(rate, 2)}
    if case.operation.path == "/admin/v1/dashboards/{dashboardId}/tokens" and isinstance(case.body, dict):
        expires = instant(case.body.get("expiresAt"))
        if expires is not None and expires <= time.time_ns() + 60 * 10**9:
            case.body = {**case.body, "expiresAt": "2099-01-01T00:00:00Z"}
    if case.headers:
        for name in list(case.headers):
            if name.lower() == "idempotency-key":
                new = unique_idempotency_key(case.headers[name])
                if new is not case.headers[name]:
                    case.headers = {**case.headers, name: new}
    if os.environ.get("FUZZ_HOOKS_TRACE"):  # a file to which each request is appended, as sent
        with open(os.environ["FUZZ_HOOKS_TRACE"], "a", encoding="utf-8") as trace:
            key = next((v for k, v in (case.headers or {}).items() if k.lower() == "idempotency-key"), None)
            ext = case.body.get("externalId") if isinstance(case.body, dict) else None
            trace.write(f"{case.method} {case.path} externalId={ext!r} Idempotency-Key={key!r} query={case.query!r}\n")
