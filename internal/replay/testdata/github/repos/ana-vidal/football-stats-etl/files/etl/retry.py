import functools
import logging
import random
import time

log = logging.getLogger(__name__)


def retry(times=3, base_delay=1.0, exceptions=(Exception,)):
    """Retry a function with exponential backoff and a bit of jitter."""

    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            for attempt in range(1, times + 1):
                try:
                    return fn(*args, **kwargs)
                except exceptions as exc:
                    if attempt == times:
                        raise
                    delay = base_delay * 2 ** (attempt - 1) + random.random()
                    log.warning("%s failed (%s), retry %d in %.1fs", fn.__name__, exc, attempt, delay)
                    time.sleep(delay)

        return wrapper

    return deco
