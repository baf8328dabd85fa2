"""Tests of the tameness check: which code a batch takes, and why not."""
import ast
import unittest

from ..batch import _PRELOAD
from ..tame import _wild


def setUpModule():
    # tame runs in a batch child, where these are loaded: what a module holds is
    # what the check follows (logging.sys)
    for m in _PRELOAD:
        try:
            __import__(m)
        except ImportError:
            pass


class WildTest(unittest.TestCase):
    def test_cases(self):
        cases = [
            ("import requests, json, os\nKEY = os.environ['K']\ndef f(q):\n"
             "    return requests.get('https://a/' + q, headers={'k': os.getenv('K')}).json()\n", ""),
            ("import pandas as pd\nfrom .models import X\nfrom flask import *\nimport sys\n", ""),
            ("import logging\nlog = logging.getLogger(__name__)\ndef f(x):\n    return f.__name__\n", ""),
            ("import os\nos.environ['A'] = 'b'\n", ""),
            ("import sys\nprint(sys.argv)\n", ""),
            ("import sys\nif not sys.argv[1:]:\n    print('usage', file=sys.stderr)\n    sys.exit(1)\n", ""),
            ("from sys import exit, argv\nexit(argv)\n", ""),
            ("def f():\n    exit()\n    quit(1)\n", ""),
            ("import sys\nm = sys.modules\n", "sys.modules"),
            ("import sys\nsys.setrecursionlimit(60)\n", "sys.setrecursionlimit"),
            ("import sys\nf = sys._getframe()\n", "sys._getframe"),
            ("import sys\ns = sys\n", "sys used as a value"),
            ("import sys\nsys.argv = []\n", "assigns to an attribute of sys"),
            ("from sys import modules\n", "imports sys.modules"),
            ("import sys as s\nm = s.modules\n", "imports sys as s"),
            ("import os as o\no.dup2(3, 2)\n", "imports os as o"),
            ("import logging\nm = logging.sys.stderr\n", "reaches sys through logging"),
            ("import subprocess\nsubprocess.run([])\n", "imports subprocess"),
            ("import sccg_no_such_stdlib_module_x, sys\n", ""),
            ("import threading\nthreading.Thread()\n", "imports threading"),
            ("import asyncio\n", "mentions asyncio"),
            ("import os\nos.chdir('/')\n", "os.chdir"),
            ("import os, glob\nos.makedirs('out', exist_ok=True)\nprint(glob.glob('*'))\n", ""),
            ("import os\nf = os\n", "os used as a value"),
            ("from os import system\n", "imports os.system"),
            ("x = eval('1')\n", "calls eval"),
            ("g = globals()\n", "calls globals"),
            ("setattr(a, 'b', 1)\n", "calls setattr"),
            ("getattr(a, name)\n", "getattr with a name that is not a constant"),
            ("getattr(a, '__globals__')\n", "getattr with a name that is not a constant"),
            ("getattr(a, 'json')\n", ""),
            ("import json\ns = setattr\ns(json, 'loads', None)\n", "uses setattr as a value"),
            ("import json\nlist(map(setattr, [json], ['loads'], [None]))\n", "uses setattr as a value"),
            ("import functools, json\ng = functools.partial(getattr, json)\n", "uses getattr as a value"),
            ("class A:\n    @classmethod\n    def make(cls):\n        return cls()\n", ""),
            ("import re\ndef compile(p):\n    return re.compile(p)\n", ""),
            ("from decimal import Decimal, getcontext\ngetcontext().prec = 4\nx = Decimal(1) / 3\n", ""),
            ("import shutil\nshutil.copy('a.txt', 'b.txt')\n", ""),
            ("import shutil\nshutil.register_archive_format('x', print)\n", "uses register_archive_format"),
            ("from shutil import register_unpack_format\n", "imports register_unpack_format"),
            ("for f in inspect.stack():\n    pass\n", "uses inspect without importing it"),
            ("import json\nbuiltins.setattr(json, 'a', 1)\n", "uses builtins without importing it"),
            ("def f(sys):\n    return sys.argv\n", ""),
            ("def run(model, eval=False):\n    if eval:\n        return model\n", "uses eval as a value"),
            ("import requests\ndef f(token, code, types):\n    return requests.get('https://a/' + token + code + types)\n", ""),
            ("import json as exec_options\nexec('x = 1')\n", "calls exec"),
            ("d = dict(exec=None)\nexec('x = 1')\n", "calls exec"),
            ("import logging\nm = logging.sys.modules\n", "reaches sys through logging"),
            ("import dataclasses\nfor f in dataclasses.inspect.stack():\n    pass\n", "reaches inspect through dataclasses"),
            ("import shutil\nshutil.os.system('x')\n", "reaches os.system through shutil"),
            ("import shutil\nshutil.os.path.join('a', 'b')\n", ""),
            ("x = copy.dispatch_table\n", ""),
            ("import http\nm = http.HTTPStatus._value2member_map_\n", "uses a private attribute under http"),
            ("r = re._cache\n", "uses a private attribute under re"),
            ("import string\nf = string.Formatter().get_field('0.__globals__', [print], {})\n",
             "uses get_field"),
            ("import traceback\nfor f, _ in traceback.walk_stack(None):\n    pass\n", "uses walk_stack"),
            ("from typing import operator\n", "imports operator from typing"),
            ("import mimetypes\nf = mimetypes.knownfiles.append\n", "holds append, a method that changes its object"),
            ("import typing\nx = typing.Dict[str, int]\nx._name = 'E'\n", "sets the private attribute _name"),
            ("class C:\n    def __init__(self):\n        self._s = None\n", ""),
            ("x = [1]\nx.append(2)\n", ""),
            ("import os, sys\nprint(os.getcwd())\n", ""),
            ("import os, sys\nprint(sys.argv)\n", ""),
            ("box = [{}]\nbox[0] |= {'a': 1}\nself_count = {'n': 0}\nself_count['n'] += 1\n", ""),
            ("def f():\n    return [0]\nf()[0] += 1\n", "augments a computed target"),
            ("import collections.abc\nclass J(collections.abc.Mapping):\n    pass\nJ.register(int)\n", "uses register"),
            ("from xml.dom import registerDOMImplementation\n", "imports registerDOMImplementation"),
            ("import string\nf = string.Formatter().get_field('0.f_back', [print], {})\n", "uses get_field"),
            ("x = '{0.__globals__}'.format(print)\n", "a string that names __globals__"),
            ("if __name__ == '__main__':\n    print('{0.name}'.format(x))\n", ""),
            ("import abc\nclass Base(metaclass=abc.ABCMeta):\n    pass\n", ""),
            ("import shutil\nshutil._ARCHIVE_FORMATS.clear()\n", "uses a private attribute under shutil"),
            ("import functools\ndef deco(f):\n    def w(*a):\n        return f(*a)\n    return functools.update_wrapper(w, f)\n", ""),
            ("import urllib.parse\nurllib.parse.uses_netloc.append('x')\n", "uses uses_netloc"),
            ("class A:\n    def __del__(self):\n        pass\n", ""),
            ("class A:\n    def __getattribute__(self, n):\n        pass\n", "defines __getattribute__"),
            ("class A:\n    def __init__(self):\n        self.x = 1\n    def __repr__(self):\n        return 'A'\n", ""),
            ("import shutil\ngetattr(shutil, 'unregister_archive_format')('zip')\n",
             "getattr with a name that is not a constant"),
            ("x = f.__globals__\n", "attribute __globals__"),
            ("def g():\n    yield\nx = g().gi_frame\n", "attribute gi_frame"),
            ("x = __builtins__\n", "name __builtins__"),
            ("import json\njson.loads = None\n", "assigns to an attribute of json"),
            ("import json\njson.JSONDecoder.decode = None\n", "assigns to an attribute of json"),
            ("import requests as r\ndel r.get\n", "assigns to an attribute of r"),
            ("import json\ndef f():\n    global json\n", "global json"),
            # __import__ of a constant allowed name, read one attribute at once: as import m; m.attr
            ("k = __import__('os').environ.get('KEY', '')\n", ""),
            ("d = __import__('json').loads('{}')\n", ""),
            ("__import__('os').system('x')\n", "calls __import__"),
            ("__import__('pickle').loads(b'')\n", "calls __import__"),
            ("m = __import__('json')\n", "calls __import__"),
            ("__import__('json')._default_decoder\n", "calls __import__"),
            ("__import__('os.path').join\n", "calls __import__"),
            ("__import__(name).environ\n", "calls __import__"),
            ("__import__('json', fromlist=['x']).loads\n", "calls __import__"),
            ("__import__('json').loads = None\n", "assigns to an attribute of __import__(...)"),
            ("f = __import__\n", "name __import__"),
            # deeper chains through __import__: as through the module's name
            ("__import__('urllib').parse.quote('a b')\n", ""),
            ("__import__('logging').sys.modules\n", "reaches sys through logging"),
            ("__import__('json').decoder._x\n", "uses a private attribute under json"),
            ("__import__('json').JSONDecoder.decode = None\n", "assigns to an attribute of __import__(...)"),
            ("__import__('json').loads.x = 1\n", "assigns to an attribute of __import__(...)"),
            # an alias of a module escapes the module chains: the names that lead
            # off the allow-list are refused on anything
            ("import logging\nl = logging\nm = l.sys.modules\n", "reads sys, which names a module outside the allow-list"),
            ("import logging\ndef f(l=logging):\n    return l.os.system\n", "reads os, which names a module outside the allow-list"),
            ("import copy\nw = [copy][0].weakref\n", "reads weakref, which names a module outside the allow-list"),
            ("import dataclasses as d\nx = d.inspect\n", "reads inspect, which names a module outside the allow-list"),
            ("import traceback\nt = traceback\nb = t._sys\n", "reads _sys, which names a module outside the allow-list"),
            ("def f(e):\n    return e.code, e.errors, e.model, e.stat\n", ""),
        ]
        for code, want in cases:
            with self.subTest(code=code):
                self.assertEqual(_wild(ast.parse(code), code), want)


if __name__ == "__main__":
    unittest.main()
