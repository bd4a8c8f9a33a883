"""The README's walk-through, through a client generated from the service's OpenAPI document by
openapi-python-client, as an integrator would. scripts/generated-clients.sh generates the package
`orders_service_client`, puts it on PYTHONPATH and runs this against a running service (BASE_URL,
ADMIN_TOKEN). Exits non-zero at the first surprise."""

import os
import sys

from orders_service_client import AuthenticatedClient
from orders_service_client.api.admin import create_dashboard, create_token
from orders_service_client.api.orders import create_order, get_order, list_orders, update_order
from orders_service_client.models import (
    CreateDashboardRequest,
    CreateOrderRequest,
    CreateOrderResponse,
    CreateTokenRequest,
    DashboardResponse,
    IssuedTokenResponse,
    OrderDetailResponse,
    OrderList,
    OrderResponse,
    OrderStatus,
    Problem,
    UpdateOrderRequest,
)

BASE_URL = os.environ.get("BASE_URL", "http://127.0.0.1:3000")
ADMIN_TOKEN = os.environ.get("ADMIN_TOKEN", "")


def check(what, ok, seen=None):
    if not ok:
        print(f"not ok - {what}: {seen!r}")
        sys.exit(1)
    print(f"ok - {what}")


def main():
    admin = AuthenticatedClient(base_url=BASE_URL, token=ADMIN_TOKEN)
    dashboard = create_dashboard.sync(client=admin, body=CreateDashboardRequest(name="My shop"))
    check("a dashboard", isinstance(dashboard, DashboardResponse), dashboard)
    issued = create_token.sync(dashboard.dashboard.id, client=admin, body=CreateTokenRequest(name="checkout"))
    check("a token, shown once", isinstance(issued, IssuedTokenResponse) and len(issued.token.token) > 20, issued)

    api = AuthenticatedClient(base_url=BASE_URL, token=issued.token.token)
    order = CreateOrderRequest.from_dict(
        {
            "externalId": "A-1001",
            "platform": "shopify",
            "paymentMethod": "credit_card",
            "status": "pending",
            "createdAt": "2026-11-20T14:03:00-03:00",
            "isTest": False,
            "amounts": {"currency": "BRL", "grossCents": 15990, "netToSellerCents": 14391, "totalFeesCents": 1599},
            "products": [{"externalId": "P-9", "sku": "TEE-M", "name": "T-shirt M", "quantity": 1, "unitPriceCents": 15990}],
            "tracking": {"utmSource": "google", "utmMedium": "cpc", "utmCampaign": "black-friday"},
            "metadata": {"note": "gift", "lines": [1, 2, {"wrap": True}]},
        }
    )
    created = create_order.sync_detailed(client=api, body=order, idempotency_key="3f1c2d9e")
    check(
        "POST /api/v1/orders answers 201 with the order",
        created.status_code == 201 and isinstance(created.parsed, CreateOrderResponse) and created.parsed.order.external_id == "A-1001",
        created.parsed,
    )
    check("with Location", created.headers.get("location") == "/api/v1/orders/A-1001", created.headers.get("location"))
    replayed = create_order.sync_detailed(client=api, body=order, idempotency_key="3f1c2d9e")
    check(
        "the same Idempotency-Key replays the answer",
        replayed.headers.get("idempotent-replayed") == "true" and replayed.parsed.order.id == created.parsed.order.id,
        replayed.parsed,
    )
    duplicate = create_order.sync(client=api, body=order)
    check("a second order with the same externalId is a typed 409 problem", isinstance(duplicate, Problem) and duplicate.code.value == "DUPLICATE_EXTERNAL_ID", duplicate)

    listed = list_orders.sync(client=api)
    check("the list holds it", isinstance(listed, OrderList) and listed.total == 1 and listed.orders[0].external_id == "A-1001", listed)
    filtered = list_orders.sync(client=api, status=OrderStatus.PENDING, page=1, page_size=50)
    check("and so does the filtered list", isinstance(filtered, OrderList) and len(filtered.orders) == 1 and filtered.page_size == 50, filtered)
    bad = list_orders.sync(client=api, page_size=500)
    check("a bad query is a typed 400 with details", isinstance(bad, Problem) and bad.details[0].path == "query.pageSize", bad)

    paid = update_order.sync("A-1001", client=api, body=UpdateOrderRequest.from_dict({"status": "paid"}))
    check("PATCH marks it paid, with paidAt", isinstance(paid, OrderResponse) and paid.order.status.value == "paid" and paid.order.paid_at is not None, paid)
    read = get_order.sync("A-1001", client=api)
    check(
        "GET reads it back whole",
        isinstance(read, OrderDetailResponse) and read.order.products[0].sku == "TEE-M" and read.order.metadata.to_dict()["note"] == "gift",
        read,
    )
    missing = get_order.sync("no-such-order", client=api)
    check("an unknown order is a typed 404 problem", isinstance(missing, Problem) and missing.code.value == "NOT_FOUND", missing)


if __name__ == "__main__":
    main()
