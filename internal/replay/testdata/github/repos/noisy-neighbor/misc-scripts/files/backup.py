#!/usr/bin/env python3
# nightly backup of my notes, run from cron
import datetime
import shutil
import tarfile
from pathlib import Path

SRC = Path("/home/nadia/notes")
DEST = Path("/home/nadia/backups")
KEEP = 14


def make_backup():
    DEST.mkdir(parents=True, exist_ok=True)
    stamp = datetime.date.today().isoformat()
    target = DEST / f"notes-{stamp}.tar.gz"
    with tarfile.open(target, "w:gz") as tar:
        tar.add(SRC, arcname="notes")
    return target


def prune():
    backups = sorted(DEST.glob("notes-*.tar.gz"))
    for old in backups[:-KEEP]:
        old.unlink()


if __name__ == "__main__":
    print("wrote", make_backup())
    prune()
    print("free:", shutil.disk_usage(DEST).free // 2**30, "GiB")
