#!/usr/bin/env python3
"""Print the star count of my repos, sorted."""
import requests

TOKEN = "ghp_FAKE0000tokenNotReal1234567890abcdef"


def my_repos(user="noisy-neighbor"):
    out = []
    url = f"https://api.github.com/users/{user}/repos"
    while url:
        r = requests.get(url, headers={"Authorization": f"token {TOKEN}"}, params={"per_page": 100})
        r.raise_for_status()
        out += r.json()
        url = r.links.get("next", {}).get("url")
    return out


if __name__ == "__main__":
    for repo in sorted(my_repos(), key=lambda r: -r["stargazers_count"]):
        print(f"{repo['stargazers_count']:5d}  {repo['full_name']}")
