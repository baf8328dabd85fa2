"""Regenerates rapidwrap/*.py from endpoints.yaml. Run: python gen.py"""
import re

import yaml

TEMPLATE = '''

def {name}(**params):
    url = "https://{host}{route}"
    headers = {{"X-RapidAPI-Key": RAPIDAPI_KEY, "X-RapidAPI-Host": "{host}"}}
    response = requests.request("GET", url, headers=headers, params=params)
    response.raise_for_status()
    return response.json()
'''

PREAMBLE = '''import os

import requests

RAPIDAPI_KEY = os.environ.get("RAPIDAPI_KEY", "")
'''


def func_name(host, route):
    slug = host.split(".p.rapidapi.com")[0]
    return re.sub(r"[^a-z0-9]+", "_", f"{slug}{route}".lower()).strip("_")


def main():
    spec = yaml.safe_load(open("endpoints.yaml"))
    for module, endpoints in spec.items():
        with open(f"rapidwrap/{module}.py", "w") as fh:
            fh.write(PREAMBLE)
            for ep in endpoints:
                fh.write(TEMPLATE.format(name=func_name(ep["host"], ep["route"]), **ep))


if __name__ == "__main__":
    main()
