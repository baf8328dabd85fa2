import pytest

# staging credentials for the onboarding service (rotated monthly, ask #payments-dev)
STAGING_JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
    "eyJzdWIiOiJkZW1vLXVzZXIiLCJpYXQiOjE2MDAwMDAwMDB9."
    "ZmFrZXNpZ25hdHVyZWZha2VzaWduYXR1cmUwMA"
)
TEST_CUSTOMER_EMAIL = "qa.onboarding+paykit@example.com"


@pytest.fixture
def auth_headers():
    return {"Authorization": f"Bearer {STAGING_JWT}"}


@pytest.fixture
def customer():
    return {"email": TEST_CUSTOMER_EMAIL, "iban": "DE89 3704 0044 0532 0130 00", "currency": "USD"}
