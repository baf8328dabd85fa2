import time
import urllib.request

SITES = ["https://example.org", "https://example.com", "https://www.iana.org"]


def check(url, timeout=5):
    t0 = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:
            return resp.status, time.monotonic() - t0
    except Exception as exc:
        return str(exc), None


for site in SITES:
    print(site, *check(site))
