"""Print a curl command for a RapidAPI endpoint (I paste these into the terminal)."""
import shlex
import sys

# e.g. python curl_builder.py realtime-stock-quotes.p.rapidapi.com /quote/AAPL
TEMPLATE = "curl -s {url} -H {host_header} -H {key_header}"


def build(host, path, key="$RAPIDAPI_KEY"):
    url = f"https://{host}{path}"
    return TEMPLATE.format(
        url=shlex.quote(url),
        host_header=shlex.quote(f"x-rapidapi-host: {host}"),
        key_header=f'"x-rapidapi-key: {key}"',
    )


if __name__ == "__main__":
    print(build(sys.argv[1], sys.argv[2]))
