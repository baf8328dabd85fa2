import argparse
import asyncio

from serp.search import check_all

p = argparse.ArgumentParser()
p.add_argument("domain")
p.add_argument("keywords", nargs="+")
p.add_argument("-o", "--out", default="ranks.csv")
a = p.parse_args()
print(asyncio.run(check_all(a.keywords, a.domain, a.out)))
