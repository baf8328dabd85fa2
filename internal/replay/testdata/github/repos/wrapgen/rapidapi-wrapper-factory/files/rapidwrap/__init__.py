from rapidwrap.finance_news import *  # noqa: F401,F403
from rapidwrap.geo import *  # noqa: F401,F403

__version__ = "0.2.1"
