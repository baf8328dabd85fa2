"""Download a file with a progress bar."""
import sys

import requests
from tqdm import tqdm


def download(url, dest):
    with requests.get(url, stream=True, timeout=30) as r:
        r.raise_for_status()
        total = int(r.headers.get("content-length", 0))
        with open(dest, "wb") as fh, tqdm(total=total, unit="B", unit_scale=True) as bar:
            for chunk in r.iter_content(chunk_size=1 << 15):
                fh.write(chunk)
                bar.update(len(chunk))
    return dest


if __name__ == "__main__":
    download(sys.argv[1], sys.argv[2])
