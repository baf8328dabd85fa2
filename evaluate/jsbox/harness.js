// The JavaScript side of the sandbox: compiled once per worker, run in every fresh
// runtime before the completion. It is one function expression taking `host` (the
// Go side: record, console, exit, stubbed, b64) and returning what the Go driver
// calls. Nothing of host reaches a global: the completion sees only the globals and
// modules this file makes — recorders for the HTTP clients, safe stubs for Node's
// built-ins, refusals for the ones that reach the system, permissive stubs for the
// rest — and a virtual clock for its timers.
(function (host) {
  "use strict";
  var G = globalThis;
  // applyTo(f, self, args) is Reflect.apply with this runtime's own
  // Function.prototype.apply, whatever the code does to it or to Reflect.
  var applyTo = str.call.bind(str.apply);
  var MAX_TIMERS = 1000; // pending at once
  var hasOwn = Object.prototype.hasOwnProperty;
  // The well-known symbols, from the Go side: reading Symbol.iterator makes the
  // Symbol constructor (some 170 objects) in a runtime that has no other use for
  // it. Symbol.asyncIterator is undefined in this engine.
  var SYM_ITERATOR = host.symIterator, SYM_TO_PRIMITIVE = host.symToPrimitive;

  // ---- values -------------------------------------------------------------

  // str is String(v): a template makes the same string of anything but a symbol,
  // without making the String constructor
  function str(v) {
    try {
      return typeof v === "symbol" ? String(v) : `${v}`;
    } catch (e) {
      return "?";
    }
  }

  // A permissive stub: every property is another stub, it can be called and
  // constructed, it is no thenable, iterates over one stub, and reads as "test".
  function makeStub(name) {
    var target = function () {};
    var proxy;
    var handler = {
      get: function (t, k) {
        if (typeof k === "symbol") {
          if (k === SYM_TO_PRIMITIVE) return function (hint) { return hint === "number" ? 1 : "test"; };
          if (k === SYM_ITERATOR) return function* () { yield makeStub(name); };
          return undefined;
        }
        if (k === "then") return undefined;
        if (k === "toString" || k === "toJSON") return function () { return "test"; };
        if (k === "valueOf") return function () { return 1; };
        if (k === "__esModule") return false;
        if (k === "length") return 1;
        if (k === "prototype") return t.prototype;
        if (hasOwn.call(t, k) && k !== "name") return t[k];
        // one stub per property, so what the code sets on it stays there
        // (button.dataset.x = 1; form.onsubmit = handler)
        var child = makeStub(name);
        try { t[k] = child; } catch (e) {}
        return child;
      },
      set: function (t, k, v) {
        try { t[k] = v; } catch (e) {}
        return true;
      },
      has: function () { return true; },
      apply: function (t, self, args) {
        // a stub decorator or higher-order component leaves the class it wraps
        // as it was (@Injectable() export class …, connect(m)(Widget))
        if (args.length > 0 && isClass(args[0])) return args[0];
        hand(args);
        return makeStub(name);
      },
      construct: function (t, args) { hand(args); return makeStub(name); },
      getPrototypeOf: function () { return Object.prototype; },
    };
    proxy = new Proxy(target, handler);
    return proxy;
  }

  // isClass: /^class\b/.test(Function.prototype.toString.call(f)), with neither a
  // regular expression nor the Function constructor made for it
  var fnToString = str.toString;
  function isClass(f) {
    if (typeof f !== "function") return false;
    try {
      var s = fnToString.call(f);
      if (s.slice(0, 5) !== "class") return false;
      var c = s.charCodeAt(5);
      return !(isLetter(c) || (c >= 48 && c <= 57) || c === 95);
    } catch (e) {
      return false;
    }
  }

  // Functions the code hands to a stub (a route handler to express's app.get, an
  // effect to React's useEffect, a listener to document.addEventListener): the
  // driver calls them, when nothing else sent a request, as their framework would.
  // An options object handed to a stub (new Vue({created() {…}}), createApp({setup()
  // {…}}), a plugin's hooks) hands its functions and its methods' too, each called
  // with the component's `this`: its data (an empty string filled as a form field
  // bound to it would be) and methods, any other property a stub.
  var handed = [];
  var MAX_HANDED = 50;
  function hand(args) {
    for (var i = 0; i < args.length && handed.length < MAX_HANDED; i++) {
      var a = args[i];
      if (typeof a === "function") {
        if (!isClass(a)) handed.push({ fn: a, self: undefined });
      } else if (isPlain(a)) {
        handOptions(a);
      }
    }
  }
  function isPlain(o) {
    if (o === null || typeof o !== "object") return false;
    var p = Object.getPrototypeOf(o);
    return p === Object.prototype || p === null;
  }
  // withStubs is o with a stub (made on first read, then kept) for each property
  // it lacks, so code reads what a real module or object would have; lacking(k),
  // when given, makes that value instead. Symbols, then, toJSON and __esModule read
  // as absent: no stand-in is a thenable or a module flag.
  function withStubs(o, name, lacking) {
    return new Proxy(o, { get: function (t, k) {
      if (typeof k === "symbol" || k === "then" || k === "toJSON" || k === "__esModule") return undefined;
      if (!hasOwn.call(t, k)) t[k] = lacking ? lacking(k) : makeStub(name);
      return t[k];
    } });
  }

  function handOptions(o) {
    var vm = null;
    var self = function () {
      if (vm) return vm;
      var own = {};
      vm = withStubs(own, "this");
      try { var d = typeof o.data === "function" ? o.data.call(vm) : o.data; if (isObj(d)) assign(own, d); } catch (e) {}
      // an empty string in a component's data is what a form field bound to it
      // (v-model) holds until a user types: it holds what a user would have typed
      var ks = Object.keys(own);
      for (var i = 0; i < ks.length; i++) if (own[ks[i]] === "") own[ks[i]] = host.field(ks[i]);
      if (isPlain(o.methods)) assign(own, o.methods);
      return vm;
    };
    var add = function (from) {
      var ks = Object.keys(from);
      for (var j = 0; j < ks.length && handed.length < MAX_HANDED; j++) {
        var f = from[ks[j]];
        if (typeof f === "function" && ks[j] !== "data") handed.push({ fn: f, self: self });
      }
    };
    add(o);
    if (isPlain(o.methods)) add(o.methods);
  }

  // What a fake response's json() gives: a record whose every field is another
  // record, iterable over one item, that reads as "test" or 1.
  function makeData() {
    return makeStub("data");
  }

  function isObj(v) {
    return v !== null && (typeof v === "object" || typeof v === "function");
  }

  // keysOf: the names in a params, query or body value (null when none).
  function keysOf(v) {
    if (v === undefined || v === null) return null;
    if (typeof v === "string") return v;
    if ((URLSearchParams && v instanceof URLSearchParams) || (FormData && v instanceof FormData) || (Headers && v instanceof Headers)) {
      var out = [];
      v.forEach(function (val, k) { out.push(k); });
      return out;
    }
    if (Array.isArray(v)) {
      var ks = [];
      for (var i = 0; i < v.length; i++) if (Array.isArray(v[i]) && v[i].length) ks.push(str(v[i][0]));
      return ks;
    }
    if (isObj(v)) {
      try {
        return Object.keys(v);
      } catch (e) {
        return [];
      }
    }
    return str(v);
  }

  // headersOf: headers as a plain object of strings.
  function headersOf(h) {
    var out = {};
    if (!h) return out;
    try {
      if (Headers && h instanceof Headers) {
        h.forEach(function (v, k) { out[k] = str(v); });
      } else if (Array.isArray(h)) {
        for (var i = 0; i < h.length; i++) if (Array.isArray(h[i]) && h[i].length > 1) out[str(h[i][0])] = str(h[i][1]);
      } else if (isObj(h)) {
        var ks = Object.keys(h);
        for (var j = 0; j < ks.length; j++) {
          var v = h[ks[j]];
          if (v !== undefined && v !== null && !isObj(v)) out[ks[j]] = str(v);
          else if (Array.isArray(v)) out[ks[j]] = v.join(", ");
        }
      }
    } catch (e) {}
    return out;
  }

  function assign(dst) {
    for (var i = 1; i < arguments.length; i++) {
      var s = arguments[i];
      if (!isObj(s)) continue;
      var ks = Object.keys(s);
      for (var j = 0; j < ks.length; j++) dst[ks[j]] = s[ks[j]];
    }
    return dst;
  }

  // The harness's common paths use no regular expression: a runtime makes
  // RegExp.prototype (a score of functions) on its first one.
  function isLetter(c) {
    c |= 32;
    return c >= 97 && c <= 122;
  }

  // absolute: u starts with a scheme and "//" (/^[a-z][a-z0-9+.-]*:\/\//i).
  function absolute(u) {
    if (!isLetter(u.charCodeAt(0))) return false;
    for (var i = 1; i < u.length; i++) {
      var c = u.charCodeAt(i);
      if (isLetter(c) || (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46) continue;
      return c === 58 && u.charCodeAt(i + 1) === 47 && u.charCodeAt(i + 2) === 47;
    }
    return false;
  }

  function joinURL(base, url) {
    var u = url === undefined || url === null ? "" : str(url);
    if (base === undefined || base === null || base === "" || absolute(u)) return u;
    var b = str(base);
    if (!u) return b;
    var e = b.length, s = 0;
    while (e > 0 && b.charCodeAt(e - 1) === 47) e--;
    while (s < u.length && u.charCodeAt(s) === 47) s++;
    return b.slice(0, e) + "/" + u.slice(s);
  }

  // A body: JSON keys for a plain object, form keys (or the string) otherwise.
  function bodyOf(body) {
    if (body === undefined || body === null) return { json: null, data: null };
    if (typeof body === "string") return { json: null, data: body };
    if ((URLSearchParams && body instanceof URLSearchParams) || (FormData && body instanceof FormData)) return { json: null, data: keysOf(body) };
    if (isObj(body) && !(body instanceof ArrayBuffer)) return { json: keysOf(body), data: null };
    return { json: null, data: str(body) };
  }

  // record reports one request; params may be keys, a string or an object.
  function record(lib, method, url, params, headers, json, data) {
    host.record(lib, str(method || "GET").toUpperCase(), str(url), paramsOf(params), headersOf(headers),
      json === undefined ? null : json, data === undefined ? null : data);
  }

  function paramsOf(p) {
    if (p === undefined || p === null) return null;
    if (Array.isArray(p) && p.every(function (x) { return typeof x === "string"; })) return p;
    return keysOf(p);
  }

  // ---- timers (a virtual clock) -------------------------------------------

  // pending timers: a binary min-heap by (at, id); a cleared timer is dropped
  // when it reaches the top
  var heap = [];
  var live = {}; // id → timer (ids are numbers: a Map's lookups, without making Map)
  var nlive = 0;
  var timerSeq = 0;
  var clock = 0;

  function before(a, b) {
    return a.at < b.at || (a.at === b.at && a.id < b.id);
  }
  function heapPush(t) {
    var i = heap.length;
    heap.push(t);
    while (i > 0) {
      var p = (i - 1) >> 1;
      if (!before(heap[i], heap[p])) break;
      var x = heap[i]; heap[i] = heap[p]; heap[p] = x;
      i = p;
    }
  }
  function heapPop() {
    var top = heap[0];
    var last = heap.pop();
    if (heap.length) {
      heap[0] = last;
      var i = 0;
      for (;;) {
        var l = 2 * i + 1, r = l + 1, m = i;
        if (l < heap.length && before(heap[l], heap[m])) m = l;
        if (r < heap.length && before(heap[r], heap[m])) m = r;
        if (m === i) break;
        var x = heap[i]; heap[i] = heap[m]; heap[m] = x;
        i = m;
      }
    }
    return top;
  }

  function addTimer(fn, delay, args, repeat) {
    if (typeof fn !== "function") return ++timerSeq;
    if (nlive >= MAX_TIMERS) throw new RangeError("sandbox: too many pending timers");
    var d = Number(delay) || 0;
    if (d < 0) d = 0;
    var t = { id: ++timerSeq, at: clock + d, fn: fn, args: args, repeat: repeat ? Math.max(d, 1) : 0 };
    live[t.id] = t;
    nlive++;
    heapPush(t);
    return t.id;
  }

  function clearTimer(id) {
    if (isObj(id) && id._id !== undefined) id = id._id;
    if (typeof id === "number" && hasOwn.call(live, id)) {
      delete live[id];
      nlive--;
    }
  }

  function Timeout(id) {
    this._id = id;
  }
  var timeoutMethods = false;
  function newTimeout(id) {
    if (!timeoutMethods) {
      timeoutMethods = true;
      Timeout.prototype.unref = function () { return this; };
      Timeout.prototype.ref = function () { return this; };
      Timeout.prototype.hasRef = function () { return true; };
      Timeout.prototype.refresh = function () { return this; };
      Timeout.prototype[SYM_TO_PRIMITIVE] = function () { return this._id; };
    }
    return new Timeout(id);
  }

  // tick runs the earliest timer; false when none is pending.
  function tick() {
    while (heap.length) {
      var t = heapPop();
      if (!hasOwn.call(live, t.id)) continue;
      clock = t.at;
      if (t.repeat) {
        t.at = clock + t.repeat;
        heapPush(t);
      } else {
        delete live[t.id];
        nlive--;
      }
      t.fn.apply(undefined, t.args);
      return true;
    }
    return false;
  }

  var setTimeoutF = function setTimeout(fn, delay, ...rest) {
    return newTimeout(addTimer(fn, delay, rest, false));
  };
  var setIntervalF = function setInterval(fn, delay, ...rest) {
    return newTimeout(addTimer(fn, delay, rest, true));
  };
  var setImmediateF = function setImmediate(fn, ...rest) {
    return newTimeout(addTimer(fn, 0, rest, false));
  };
  var clearF = function clearTimeout(id) { clearTimer(id); };

  function sleep(ms, value) {
    return new Promise(function (resolve) { addTimer(resolve, ms, [value], false); });
  }

  // ---- console --------------------------------------------------------------

  function fmt(v, depth) {
    if (typeof v === "string") return v;
    if (v === undefined) return "undefined";
    if (v === null || typeof v !== "object") return str(v);
    if (v instanceof Error) return str(v.stack || v);
    try {
      return JSON.stringify(v);
    } catch (e) {
      return str(v);
    }
  }

  // Once the console keeps no more, a call costs nothing but the count of what it
  // would have written.
  var consoleFull = false;
  function logger(level) {
    return function (...args) {
      if (consoleFull) {
        var n = 0;
        for (var j = 0; j < args.length; j++) n += typeof args[j] === "string" ? args[j].length + 1 : 16;
        host.dropped(n);
        return;
      }
      var parts = [];
      for (var i = 0; i < args.length; i++) parts.push(fmt(args[i]));
      consoleFull = !host.console(level, parts.join(" "));
    };
  }

  var consoleObj = {
    log: logger("log"), info: logger("info"), debug: logger("debug"), warn: logger("warn"),
    error: logger("error"), trace: logger("trace"), dir: logger("log"), table: logger("log"),
    time: function () {}, timeEnd: function () {}, timeLog: function () {}, group: function () {},
    groupEnd: function () {}, assert: function () {}, count: function () {},
  };

  // ---- WHATWG: URL, URLSearchParams, Headers, FormData, AbortController, fetch ----
  // each made on first use: most completions use few of them
  var URLSearchParams, dec, enc, urlRe, URL, Headers, FormData, AbortSignal, AbortController, Blob, Response, Request, makeFetch, fetchF, fetchModule;
  function loadURL() {
    if (URL) return;

    URLSearchParams = function URLSearchParams(init) {
      this._l = [];
      if (init === undefined || init === null) return;
      if (typeof init === "string") {
        var s = init.charAt(0) === "?" ? init.slice(1) : init;
        if (!s) return;
        var parts = s.split("&");
        for (var i = 0; i < parts.length; i++) {
          if (!parts[i]) continue;
          var eq = parts[i].indexOf("=");
          var k = eq < 0 ? parts[i] : parts[i].slice(0, eq);
          var v = eq < 0 ? "" : parts[i].slice(eq + 1);
          this._l.push([dec(k), dec(v)]);
        }
      } else if (init instanceof URLSearchParams) {
        this._l = init._l.map(function (p) { return [p[0], p[1]]; });
      } else if (Array.isArray(init)) {
        for (var j = 0; j < init.length; j++) this._l.push([str(init[j][0]), str(init[j][1])]);
      } else if (isObj(init)) {
        var ks = Object.keys(init);
        for (var n = 0; n < ks.length; n++) this._l.push([ks[n], str(init[ks[n]])]);
      }
    };
    dec = function dec(s) {
      try {
        return decodeURIComponent(s.replace(/\+/g, " "));
      } catch (e) {
        return s;
      }
    };
    enc = function enc(s) {
      return encodeURIComponent(s).replace(/%20/g, "+");
    };
    URLSearchParams.prototype = {
      append: function (k, v) { this._l.push([str(k), str(v)]); if (this._u) this._u._sync(); },
      set: function (k, v) {
        k = str(k);
        var found = false;
        this._l = this._l.filter(function (p) {
          if (p[0] !== k) return true;
          if (found) return false;
          found = true;
          p[1] = str(v);
          return true;
        });
        if (!found) this._l.push([k, str(v)]);
        if (this._u) this._u._sync();
      },
      get: function (k) {
        for (var i = 0; i < this._l.length; i++) if (this._l[i][0] === str(k)) return this._l[i][1];
        return null;
      },
      getAll: function (k) { return this._l.filter(function (p) { return p[0] === str(k); }).map(function (p) { return p[1]; }); },
      has: function (k) { return this.get(k) !== null; },
      delete: function (k) { this._l = this._l.filter(function (p) { return p[0] !== str(k); }); if (this._u) this._u._sync(); },
      forEach: function (fn, self) { for (var i = 0; i < this._l.length; i++) fn.call(self, this._l[i][1], this._l[i][0], this); },
      keys: function () { return this._l.map(function (p) { return p[0]; })[SYM_ITERATOR](); },
      values: function () { return this._l.map(function (p) { return p[1]; })[SYM_ITERATOR](); },
      entries: function () { return this._l.map(function (p) { return [p[0], p[1]]; })[SYM_ITERATOR](); },
      sort: function () { this._l.sort(function (a, b) { return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0; }); },
      toString: function () { return this._l.map(function (p) { return enc(p[0]) + "=" + enc(p[1]); }).join("&"); },
      get size() { return this._l.length; },
    };
    URLSearchParams.prototype[SYM_ITERATOR] = URLSearchParams.prototype.entries;
    URLSearchParams.prototype.constructor = URLSearchParams;

    URL = function URL(u, base) {
      var s = str(u);
      if (base !== undefined && !/^[a-z][a-z0-9+.-]*:/i.test(s)) {
        var b = new URL(base);
        if (s.charAt(0) === "/" && s.charAt(1) === "/") s = b.protocol + s;
        else if (s.charAt(0) === "/") s = b.origin + s;
        else if (s.charAt(0) === "?") s = b.origin + b.pathname + s;
        else s = b.origin + b.pathname.replace(/[^\/]*$/, "") + s;
      }
      if (!urlRe) urlRe = /^([a-z][a-z0-9+.-]*:)(?:\/\/(?:([^:@\/]*)(?::([^@\/]*))?@)?([^:\/?#]*)(?::(\d*))?)?([^?#]*)(\?[^#]*)?(#.*)?$/i;
      var m = urlRe.exec(s);
      if (!m) throw new TypeError("Invalid URL: " + s);
      this.protocol = m[1].toLowerCase();
      this.username = m[2] || "";
      this.password = m[3] || "";
      this.hostname = (m[4] || "").toLowerCase();
      this.port = m[5] || "";
      this.pathname = m[6] || (m[4] !== undefined ? "/" : "");
      this.hash = m[8] || "";
      this.searchParams = new URLSearchParams(m[7] || "");
      this.searchParams._u = this;
      this._search = m[7] && m[7] !== "?" ? m[7] : "";
    };
    URL.prototype = {
      _sync: function () {
        var q = this.searchParams.toString();
        this._search = q ? "?" + q : "";
      },
      get search() { return this._search; },
      set search(v) {
        v = str(v);
        this.searchParams = new URLSearchParams(v);
        this.searchParams._u = this;
        this._search = v && v !== "?" ? (v.charAt(0) === "?" ? v : "?" + v) : "";
      },
      get host() { return this.hostname + (this.port ? ":" + this.port : ""); },
      set host(v) { var p = str(v).split(":"); this.hostname = p[0]; this.port = p[1] || ""; },
      get origin() { return this.protocol + "//" + this.host; },
      get href() {
        var auth = this.username ? this.username + (this.password ? ":" + this.password : "") + "@" : "";
        return this.protocol + "//" + auth + this.host + this.pathname + this.search + this.hash;
      },
      set href(v) { var n = new URL(v); for (var k in n) if (hasOwn.call(n, k)) this[k] = n[k]; this.searchParams._u = this; },
      toString: function () { return this.href; },
      toJSON: function () { return this.href; },
    };
    URL.prototype.constructor = URL;
    URL.canParse = function (u, b) {
      try {
        new URL(u, b);
        return true;
      } catch (e) {
        return false;
      }
    };
  }

  function loadHeaders() {
    if (Headers) return;
    Headers = function Headers(init) {
      this._m = {};
      var self = this;
      if (init instanceof Headers) init.forEach(function (v, k) { self.append(k, v); });
      else if (Array.isArray(init)) init.forEach(function (p) { self.append(p[0], p[1]); });
      else if (isObj(init)) Object.keys(init).forEach(function (k) { self.append(k, init[k]); });
    };
    Headers.prototype = {
      append: function (k, v) {
        var n = str(k).toLowerCase();
        this._m[n] = this._m[n] !== undefined ? this._m[n] + ", " + str(v) : str(v);
      },
      set: function (k, v) { this._m[str(k).toLowerCase()] = str(v); },
      get: function (k) { var v = this._m[str(k).toLowerCase()]; return v === undefined ? null : v; },
      has: function (k) { return this._m[str(k).toLowerCase()] !== undefined; },
      delete: function (k) { delete this._m[str(k).toLowerCase()]; },
      forEach: function (fn, self) { var m = this._m; Object.keys(m).forEach(function (k) { fn.call(self, m[k], k, this); }, this); },
      keys: function () { return Object.keys(this._m)[SYM_ITERATOR](); },
      values: function () { var m = this._m; return Object.keys(m).map(function (k) { return m[k]; })[SYM_ITERATOR](); },
      entries: function () { var m = this._m; return Object.keys(m).map(function (k) { return [k, m[k]]; })[SYM_ITERATOR](); },
      raw: function () { return this._m; },
    };
    Headers.prototype[SYM_ITERATOR] = Headers.prototype.entries;
    Headers.prototype.constructor = Headers;
  }

  // FormData's prototype is URLSearchParams'
  function loadForm() {
    if (FormData) return;
    loadURL();
    FormData = function FormData() {
      this._l = [];
    };
    FormData.prototype = Object.create(URLSearchParams.prototype);
    FormData.prototype.constructor = FormData;
    FormData.prototype.append = function (k, v) { this._l.push([str(k), v]); };
    FormData.prototype.getHeaders = function () { return { "content-type": "multipart/form-data; boundary=sccg" }; };
  }

  function loadAbort() {
    if (AbortSignal) return;
    AbortSignal = function AbortSignal() {
      this.aborted = false;
      this.reason = undefined;
      this.onabort = null;
    };
    AbortSignal.prototype.addEventListener = function () {};
    AbortSignal.prototype.removeEventListener = function () {};
    AbortSignal.prototype.throwIfAborted = function () {};
    AbortSignal.timeout = function () { return new AbortSignal(); };
    AbortSignal.abort = function () { var s = new AbortSignal(); s.aborted = true; return s; };
    AbortSignal.any = function () { return new AbortSignal(); };
    AbortController = function AbortController() {
      this.signal = new AbortSignal();
    };
    AbortController.prototype.abort = function (r) { this.signal.aborted = true; this.signal.reason = r; };
  }

  function loadBlob() {
    if (Blob) return;
    Blob = function Blob(parts) {
      this._s = (parts || []).map(str).join("");
      this.size = this._s.length;
      this.type = "";
    };
    Blob.prototype.text = function () { return Promise.resolve(this._s); };
    Blob.prototype.arrayBuffer = function () { return Promise.resolve(new ArrayBuffer(this._s.length)); };
  }

  // fetch with Request and Response
  function loadFetch() {
    if (Response) return;
    loadHeaders();
    loadAbort();

    Response = function Response(body, init) {
      init = init || {};
      this.status = init.status !== undefined ? init.status : 200;
      this.statusText = init.statusText !== undefined ? init.statusText : "OK";
      this.ok = this.status >= 200 && this.status < 300;
      this.headers = new Headers(init.headers || { "content-type": "application/json" });
      this.url = init.url || "";
      this.redirected = false;
      this.type = "basic";
      this.bodyUsed = false;
      this._body = body === undefined || body === null ? "{}" : body;
      this.body = makeStub("body");
    };
    Response.prototype = {
      json: function () { this.bodyUsed = true; return Promise.resolve(makeData()); },
      text: function () { this.bodyUsed = true; return Promise.resolve(str(this._body)); },
      blob: function () { loadBlob(); return Promise.resolve(new Blob([str(this._body)])); },
      arrayBuffer: function () { return Promise.resolve(new ArrayBuffer(2)); },
      formData: function () { loadForm(); return Promise.resolve(new FormData()); },
      buffer: function () { loadBuffer(); return Promise.resolve(Buffer.from(str(this._body))); },
      clone: function () { return new Response(this._body, { url: this.url }); },
    };
    Response.prototype.constructor = Response;
    Response.json = function (d) { return new Response(JSON.stringify(d)); };
    Response.error = function () { return new Response(null, { status: 0 }); };

    Request = function Request(input, init) {
      init = init || {};
      if (input instanceof Request) {
        this.url = input.url;
        this.method = init.method || input.method;
        this.headers = new Headers(init.headers || input.headers);
        this._body = init.body !== undefined ? init.body : input._body;
      } else {
        this.url = isObj(input) && input.href !== undefined ? str(input.href) : str(input);
        this.method = str(init.method || "GET").toUpperCase();
        this.headers = new Headers(init.headers);
        this._body = init.body;
      }
      this.signal = init.signal || new AbortSignal();
    };
    Request.prototype.clone = function () { return new Request(this); };

    makeFetch = function makeFetch(lib) {
      return function fetch(input, init) {
        try {
          var req = new Request(input, init);
          var b = bodyOf(req._body);
          record(lib, req.method, req.url, null, req.headers, b.json, b.data);
          return Promise.resolve(new Response("{}", { url: req.url }));
        } catch (e) {
          return Promise.reject(e);
        }
      };
    };
    fetchF = makeFetch("fetch");

    fetchModule = function fetchModule(lib) {
      loadForm();
      var f = makeFetch(lib);
      f.default = f;
      f.Headers = Headers;
      f.Request = Request;
      f.Response = Response;
      f.FormData = FormData;
      f.FetchError = Error;
      f.AbortError = Error;
      f.fetch = f;
      return f;
    };
  }

  // ---- axios ---------------------------------------------------------------------

  var axiosClasses = false;
  function AxiosError(message, code, config, request, response) {
    var e = new Error(message);
    Object.setPrototypeOf(e, AxiosError.prototype);
    e.name = "AxiosError";
    e.isAxiosError = true;
    e.code = code;
    e.config = config;
    e.response = response;
    return e;
  }

  function Interceptors() {
    this.handlers = [];
  }

  function loadAxios() {
    if (axiosClasses) return;
    axiosClasses = true;
    AxiosError.prototype = Object.create(Error.prototype);
    Interceptors.prototype.use = function (ok, bad) {
      this.handlers.push({ ok: ok, bad: bad });
      return this.handlers.length - 1;
    };
    Interceptors.prototype.eject = function (i) { this.handlers[i] = null; };
    Interceptors.prototype.clear = function () { this.handlers = []; };
    Interceptors.prototype.forEach = function (fn) { this.handlers.forEach(function (h) { if (h) fn(h); }); };
  }

  function axiosDefaults(init) {
    init = init || {};
    var d = assign({}, init);
    var h = isObj(init.headers) ? init.headers : {};
    d.headers = assign({ common: {}, get: {}, post: {}, put: {}, patch: {}, delete: {}, head: {} }, h);
    return d;
  }

  var methodNames = ["get", "post", "put", "patch", "delete", "head", "options", "common"];

  function makeAxios(defaults) {
    loadHeaders();
    loadAxios();
    var interceptors = { request: new Interceptors(), response: new Interceptors() };

    function dispatch(config) {
      var d = instance.defaults;
      var method = str(config.method || d.method || "get").toLowerCase();
      var headers = assign({}, d.headers && d.headers.common, d.headers && d.headers[method]);
      var dh = d.headers || {};
      Object.keys(dh).forEach(function (k) {
        if (methodNames.indexOf(k) < 0 && !isObj(dh[k])) headers[k] = dh[k];
      });
      if (config.headers instanceof Headers) config.headers.forEach(function (v, k) { headers[k] = v; });
      else assign(headers, config.headers);
      var params = config.params !== undefined ? config.params : d.params;
      if (isObj(d.params) && isObj(config.params) && d.params !== config.params) params = assign({}, d.params, config.params);
      var url = joinURL(config.baseURL !== undefined ? config.baseURL : d.baseURL, config.url);
      var b = bodyOf(config.data);
      if (config.auth) headers.Authorization = "Basic <auth>";
      record("axios", method, url, params, headers, b.json, b.data);
      var resp = { data: makeData(), status: 200, statusText: "OK", headers: { "content-type": "application/json" }, config: config, request: {} };
      return resp;
    }

    function request(config) {
      config = assign({}, config);
      var p = Promise.resolve(config);
      var reqs = [];
      interceptors.request.forEach(function (h) { reqs.unshift(h); });
      reqs.forEach(function (h) { p = p.then(h.ok, h.bad); });
      p = p.then(function (c) { return dispatch(c || config); });
      interceptors.response.forEach(function (h) { p = p.then(h.ok, h.bad); });
      return p;
    }

    function instance(a, b) {
      if (typeof a === "string" || (URL && a instanceof URL)) return request(assign({}, b, { url: str(a) }));
      return request(a || {});
    }
    instance.defaults = axiosDefaults(defaults);
    instance.interceptors = interceptors;
    instance.request = function (c) { return request(c); };
    ["get", "delete", "head", "options"].forEach(function (m) {
      instance[m] = function (url, c) { return request(assign({}, c, { method: m, url: url })); };
    });
    ["post", "put", "patch"].forEach(function (m) {
      instance[m] = function (url, data, c) { return request(assign({}, c, { method: m, url: url, data: data })); };
      instance[m + "Form"] = function (url, data, c) { return request(assign({}, c, { method: m, url: url, data: data })); };
    });
    instance.getUri = function (c) { return joinURL((c || {}).baseURL || instance.defaults.baseURL, (c || {}).url); };
    instance.create = function (c) {
      var merged = assign({}, instance.defaults, c);
      merged.headers = assign({}, instance.defaults.headers, c && c.headers);
      return makeAxios(merged);
    };
    instance.all = function (ps) { return Promise.all(ps); };
    instance.spread = function (fn) { return function (arr) { return fn.apply(null, arr); }; };
    instance.isAxiosError = function (e) { return isObj(e) && e.isAxiosError === true; };
    instance.isCancel = function () { return false; };
    instance.AxiosError = AxiosError;
    instance.CanceledError = AxiosError;
    instance.Cancel = AxiosError;
    instance.CancelToken = function (ex) { if (typeof ex === "function") ex(function () {}); };
    instance.CancelToken.source = function () { return { token: {}, cancel: function () {} }; };
    instance.AxiosHeaders = Headers;
    instance.HttpStatusCode = { Ok: 200, Created: 201, NoContent: 204, BadRequest: 400, Unauthorized: 401, Forbidden: 403, NotFound: 404, TooManyRequests: 429, InternalServerError: 500 };
    instance.VERSION = "1.7.0";
    instance.default = instance;
    instance.axios = instance;
    return instance;
  }

  // ---- got, ky: promises with body shortcuts ---------------------------------------

  function withShortcuts(p, body) {
    p.json = function () { return p.then(function () { return makeData(); }); };
    p.text = function () { return p.then(function () { return "{}"; }); };
    p.buffer = function () { loadBuffer(); return p.then(function () { return Buffer.from("{}"); }); };
    p.blob = function () { loadBlob(); return p.then(function () { return new Blob(["{}"]); }); };
    p.arrayBuffer = function () { return p.then(function () { return new ArrayBuffer(2); }); };
    p.cancel = function () {};
    p.on = function () { return p; };
    return p;
  }

  function makeGot(defaults) {
    defaults = defaults || {};
    function got(url, opts) {
      if (isObj(url) && !(URL && url instanceof URL)) {
        opts = url;
        url = opts.url;
      }
      opts = assign({}, defaults, opts);
      var method = str(opts.method || "GET");
      var u = joinURL(opts.prefixUrl, url);
      var headers = assign({}, defaults.headers, opts.headers);
      var body = opts.json !== undefined ? { json: keysOf(opts.json), data: null } : opts.form !== undefined ? { json: null, data: keysOf(opts.form) } : bodyOf(opts.body);
      var sp = opts.searchParams !== undefined ? opts.searchParams : opts.query;
      record("got", method, u, sp, headers, body.json, body.data);
      var resp = { statusCode: 200, statusMessage: "OK", ok: true, headers: { "content-type": "application/json" }, url: u, body: opts.responseType === "json" ? makeData() : "{}", rawBody: "{}", request: {} };
      return withShortcuts(Promise.resolve(resp));
    }
    ["get", "post", "put", "patch", "delete", "head", "options"].forEach(function (m) {
      got[m] = function (url, opts) {
        if (isObj(url) && !(URL && url instanceof URL)) return got(assign({}, url, { method: m.toUpperCase() }));
        return got(url, assign({}, opts, { method: m.toUpperCase() }));
      };
    });
    got.extend = function () {
      var d = assign({}, defaults);
      for (var i = 0; i < arguments.length; i++) {
        var o = arguments[i];
        if (isObj(o) && o.defaults && o.defaults.options) o = o.defaults.options;
        d = assign(d, o, { headers: assign({}, d.headers, o && o.headers) });
      }
      return makeGot(d);
    };
    got.stream = function (url, opts) { got(url, opts); return makeStub("stream"); };
    got.paginate = makeStub("paginate");
    got.defaults = { options: defaults };
    got.HTTPError = Error;
    got.RequestError = Error;
    got.TimeoutError = Error;
    got.default = got;
    got.got = got;
    return got;
  }

  function makeKy(defaults) {
    loadFetch();
    defaults = defaults || {};
    function ky(url, opts) {
      opts = assign({}, defaults, opts);
      var method = str(opts.method || "GET");
      var u = joinURL(opts.prefixUrl || opts.prefix, url instanceof Request ? url.url : url);
      var headers = new Headers(defaults.headers);
      new Headers(opts.headers).forEach(function (v, k) { headers.set(k, v); });
      var body = opts.json !== undefined ? { json: keysOf(opts.json), data: null } : bodyOf(opts.body);
      record("ky", method, u, opts.searchParams, headers, body.json, body.data);
      return withShortcuts(Promise.resolve(new Response("{}", { url: u })));
    }
    ["get", "post", "put", "patch", "delete", "head"].forEach(function (m) {
      ky[m] = function (url, opts) { return ky(url, assign({}, opts, { method: m.toUpperCase() })); };
    });
    ky.create = function (o) { return makeKy(o); };
    ky.extend = function (o) { return makeKy(assign({}, defaults, o, { headers: assign({}, defaults.headers, o && o.headers) })); };
    ky.HTTPError = Error;
    ky.TimeoutError = Error;
    ky.stop = {};
    ky.default = ky;
    return ky;
  }

  // ---- superagent: a chain sent when it is awaited or ended -------------------------

  function makeSuperagent() {
    function Chain(method, url) {
      this._m = str(method).toUpperCase();
      this._u = str(url);
      this._q = null;
      this._qs = [];
      this._h = {};
      this._b = undefined;
      this._form = false;
      this._sent = null;
    }
    Chain.prototype = {
      query: function (q) {
        if (typeof q === "string") this._qs.push(q);
        else this._q = assign(this._q || {}, q);
        return this;
      },
      set: function (k, v) {
        if (isObj(k)) assign(this._h, k);
        else this._h[k] = v;
        return this;
      },
      type: function (t) { if (/form/.test(str(t))) this._form = true; this._h["Content-Type"] = str(t); return this; },
      accept: function (t) { this._h.Accept = str(t); return this; },
      auth: function () { this._h.Authorization = "<auth>"; return this; },
      send: function (b) {
        if (isObj(b) && isObj(this._b)) assign(this._b, b);
        else this._b = isObj(b) ? assign({}, b) : b;
        return this;
      },
      field: function (k, v) { this._form = true; this._b = assign(this._b || {}, isObj(k) ? k : { [k]: v }); return this; },
      attach: function () { return this; },
      timeout: function () { return this; },
      retry: function () { return this; },
      withCredentials: function () { return this; },
      redirects: function () { return this; },
      ok: function () { return this; },
      use: function (fn) { if (typeof fn === "function") fn(this); return this; },
      responseType: function () { return this; },
      buffer: function () { return this; },
      _send: function () {
        if (!this._sent) {
          var b = this._form ? { json: null, data: keysOf(this._b) } : bodyOf(this._b);
          var params = this._q ? Object.keys(this._q) : null;
          if (this._qs.length) {
            loadURL();
            params = (params || []).concat(keysOf(new URLSearchParams(this._qs.join("&"))));
          }
          record("superagent", this._m, this._u, params, this._h, b.json, b.data);
          this._sent = Promise.resolve({ status: 200, statusCode: 200, ok: true, body: makeData(), text: "{}", headers: { "content-type": "application/json" }, type: "application/json" });
        }
        return this._sent;
      },
      then: function (a, b) { return this._send().then(a, b); },
      catch: function (b) { return this._send().catch(b); },
      finally: function (f) { return this._send().finally(f); },
      end: function (cb) {
        var p = this._send();
        if (typeof cb === "function") p.then(function (r) { cb(null, r); });
        return this;
      },
      abort: function () { return this; },
    };
    function sa(method, url) {
      if (url === undefined) return new Chain("GET", method);
      return new Chain(method, url);
    }
    ["get", "post", "put", "patch", "delete", "head", "options"].forEach(function (m) {
      sa[m] = function (url, data, cb) {
        var c = new Chain(m, url);
        if (typeof data === "function") cb = data;
        else if (data !== undefined) m === "get" || m === "head" ? c.query(data) : c.send(data);
        if (typeof cb === "function") c.end(cb);
        return c;
      };
    });
    sa.del = sa.delete;
    sa.agent = function () { return sa; };
    sa.default = sa;
    return sa;
  }

  // ---- unirest: a chain sent by end() or when awaited ---------------------------------

  function makeUnirest() {
    function Chain(method, url) {
      this._m = str(method || "GET").toUpperCase();
      this._u = url === undefined ? "" : str(url);
      this._q = null;
      this._h = {};
      this._b = undefined;
      this._form = false;
      this._sent = null;
    }
    Chain.prototype = {
      query: function (q) {
        if (typeof q === "string") this._q = assign(this._q || {}, qsObject(q));
        else this._q = assign(this._q || {}, q);
        return this;
      },
      headers: function (h) { assign(this._h, h); return this; },
      header: function (k, v) { if (isObj(k)) assign(this._h, k); else this._h[k] = v; return this; },
      type: function (t) { this._h["Content-Type"] = str(t); if (/form/.test(str(t))) this._form = true; return this; },
      send: function (b) {
        if (isObj(b) && isObj(this._b)) assign(this._b, b);
        else this._b = isObj(b) ? assign({}, b) : b;
        return this;
      },
      form: function (b) { this._form = true; this._b = assign(this._b || {}, b); return this; },
      field: function (k, v) { this._form = true; this._b = assign(this._b || {}, isObj(k) ? k : { [k]: v }); return this; },
      attach: function () { return this; },
      auth: function () { this._h.Authorization = "<auth>"; return this; },
      timeout: function () { return this; },
      strictSSL: function () { return this; },
      encoding: function () { return this; },
      url: function (u) { this._u = str(u); return this; },
      method: function (m) { this._m = str(m).toUpperCase(); return this; },
      _send: function () {
        if (!this._sent) {
          var b = this._form ? { json: null, data: keysOf(this._b) } : bodyOf(this._b);
          record("unirest", this._m, this._u, this._q ? Object.keys(this._q) : null, this._h, b.json, b.data);
          this._sent = Promise.resolve({ error: false, status: 200, statusCode: 200, code: 200, ok: true, body: makeData(), raw_body: "{}", headers: { "content-type": "application/json" } });
        }
        return this._sent;
      },
      end: function (cb) {
        var p = this._send();
        if (typeof cb === "function") p.then(function (r) { cb(r); });
        return this;
      },
      then: function (a, b) { return this._send().then(a, b); },
      catch: function (b) { return this._send().catch(b); },
    };
    function qsObject(q) {
      loadURL();
      var out = {};
      new URLSearchParams(q).forEach(function (v, k) { out[k] = v; });
      return out;
    }
    function unirest(method, url, headers, body, cb) {
      var c = new Chain(method, url);
      if (isObj(headers)) c.headers(headers);
      if (body !== undefined && typeof body !== "function") c.send(body);
      if (typeof cb === "function") c.end(cb);
      else if (typeof body === "function") c.end(body);
      return c;
    }
    ["get", "post", "put", "patch", "delete", "head", "options"].forEach(function (m) {
      unirest[m] = function (url, headers, body, cb) { return unirest(m, url, headers, body, cb); };
    });
    unirest.request = makeStub("unirest.request");
    unirest.default = unirest;
    return unirest;
  }

  // ---- request (legacy) ------------------------------------------------------------

  function makeRequestLib(promised) {
    function req(a, b, c) {
      var opts = isObj(a) && !(URL && a instanceof URL) ? a : assign({}, isObj(b) ? b : {}, { url: a });
      var cb = typeof b === "function" ? b : c;
      var url = joinURL(opts.baseUrl, opts.url !== undefined ? opts.url : opts.uri);
      var body = opts.form !== undefined ? { json: null, data: keysOf(opts.form) } : isObj(opts.json) ? { json: keysOf(opts.json), data: null } : bodyOf(opts.body);
      record("request", opts.method || "GET", url, opts.qs, opts.headers, body.json, body.data);
      var resp = { statusCode: 200, statusMessage: "OK", headers: {}, body: opts.json ? makeData() : "{}" };
      if (typeof cb === "function") setImmediateF(function () { cb(null, resp, resp.body); });
      if (promised) return Promise.resolve(opts.resolveWithFullResponse ? resp : resp.body);
      return makeStub("request");
    }
    ["get", "post", "put", "patch", "delete", "head"].forEach(function (m) {
      req[m] = function (a, b, c) {
        var opts = isObj(a) && !(URL && a instanceof URL) ? assign({}, a) : assign({}, isObj(b) ? b : {}, { url: a });
        opts.method = m.toUpperCase();
        return req(opts, typeof b === "function" ? b : c);
      };
    });
    req.del = req.delete;
    req.defaults = function () { return req; };
    req.default = req;
    return req;
  }

  // ---- XMLHttpRequest, jQuery --------------------------------------------------------

  function XMLHttpRequest() {
    this.readyState = 0;
    this.status = 0;
    this.statusText = "";
    this.responseText = "";
    this.response = null;
    this.responseType = "";
    this._h = {};
    this._ls = {};
    this.onload = this.onreadystatechange = this.onerror = null;
    this.upload = { addEventListener: function () {} };
  }
  XMLHttpRequest.UNSENT = 0;
  XMLHttpRequest.OPENED = 1;
  XMLHttpRequest.DONE = 4;
  XMLHttpRequest.prototype = {
    DONE: 4,
    open: function (m, u) { this._m = m; this._u = str(u); this.readyState = 1; },
    setRequestHeader: function (k, v) { this._h[k] = v; },
    getResponseHeader: function (k) { return /content-type/i.test(str(k)) ? "application/json" : null; },
    getAllResponseHeaders: function () { return "content-type: application/json\r\n"; },
    addEventListener: function (e, fn) { (this._ls[e] = this._ls[e] || []).push(fn); },
    removeEventListener: function () {},
    overrideMimeType: function () {},
    abort: function () {},
    send: function (body) {
      var b = bodyOf(body);
      record("xhr", this._m, this._u, null, this._h, b.json, b.data);
      var x = this;
      setImmediateF(function () {
        x.readyState = 4;
        x.status = 200;
        x.statusText = "OK";
        x.responseText = "{}";
        x.response = x.responseType === "json" ? makeData() : "{}";
        var ev = { target: x, currentTarget: x, type: "load" };
        if (typeof x.onreadystatechange === "function") x.onreadystatechange(ev);
        if (typeof x.onload === "function") x.onload(ev);
        (x._ls.readystatechange || []).concat(x._ls.load || [], x._ls.loadend || []).forEach(function (f) { f.call(x, ev); });
      });
    },
  };
  XMLHttpRequest.prototype.constructor = XMLHttpRequest;

  function makeJQuery() {
    function jqXHR(p) {
      var x = { status: 200, statusText: "success", readyState: 4, responseText: "{}", responseJSON: makeData() };
      x.then = function (a, b) { return p.then(a, b); };
      x.catch = function (b) { return p.catch(b); };
      x.done = function (fn) { p.then(function (d) { fn(d, "success", x); }); return x; };
      x.fail = function () { return x; };
      x.always = function (fn) { p.then(function (d) { fn(d, "success", x); }); return x; };
      x.abort = function () {};
      return x;
    }
    function ajax(url, settings) {
      var s = isObj(url) ? assign({}, url) : assign({}, settings, { url: url });
      var method = str(s.method || s.type || "GET").toUpperCase();
      var isGet = method === "GET" || method === "HEAD";
      var params = null;
      var b = { json: null, data: null };
      if (s.data !== undefined) {
        if (isGet) params = s.data;
        else if (typeof s.data === "string" && /json/i.test(str(s.contentType))) b = { json: null, data: s.data };
        else b = isObj(s.data) ? { json: null, data: keysOf(s.data) } : bodyOf(s.data);
      }
      record("jquery", method, str(s.url), params, s.headers, b.json, b.data);
      var data = makeData();
      var p = Promise.resolve(data);
      var x = jqXHR(p);
      p.then(function () {
        if (typeof s.success === "function") s.success(data, "success", x);
        if (typeof s.complete === "function") s.complete(x, "success");
      });
      return x;
    }
    function shortcut(method, dataType) {
      return function (url, data, success) {
        if (isObj(url)) return ajax(assign({}, url, { type: method }));
        if (typeof data === "function") {
          success = data;
          data = undefined;
        }
        return ajax({ url: url, type: method, data: data, success: success, dataType: dataType });
      };
    }
    var $ = function (...args) { hand(args); return makeStub("jquery"); };
    $.ajax = ajax;
    $.get = shortcut("GET");
    $.getJSON = shortcut("GET", "json");
    $.post = shortcut("POST");
    $.param = function (o) { loadURL(); return new URLSearchParams(o).toString(); };
    $.ajaxSetup = function () {};
    $.each = function (o, fn) { if (isObj(o)) Object.keys(o).forEach(function (k) { fn(k, o[k]); }); };
    $.extend = function () { return assign.apply(null, arguments); };
    $.Deferred = function () { return makeStub("deferred"); };
    $.when = function () { return Promise.all(Array.prototype.slice.call(arguments)); };
    $.fn = {};
    $.default = $;
    return $;
  }

  // ---- Node http/https, undici ---------------------------------------------------------

  var EventEmitter;
  function loadEvents() {
    if (EventEmitter) return;
    EventEmitter = function EventEmitter() {};
    EventEmitter.prototype = {
      on: function (e, fn) {
        if (!this._ev) this._ev = {};
        (this._ev[e] = this._ev[e] || []).push(fn);
        return this;
      },
      emit: function (e) {
        var fs = (this._ev && this._ev[e]) || [];
        var args = Array.prototype.slice.call(arguments, 1);
        for (var i = 0; i < fs.length; i++) fs[i].apply(this, args);
        return fs.length > 0;
      },
      removeListener: function () { return this; },
      removeAllListeners: function () { return this; },
      setMaxListeners: function () { return this; },
      listenerCount: function (e) { return ((this._ev && this._ev[e]) || []).length; },
    };
    EventEmitter.prototype.once = EventEmitter.prototype.on;
    EventEmitter.prototype.addListener = EventEmitter.prototype.on;
    EventEmitter.prototype.off = EventEmitter.prototype.removeListener;
    EventEmitter.EventEmitter = EventEmitter;
    EventEmitter.default = EventEmitter;
    EventEmitter.once = function () { return Promise.resolve([]); };
  }

  function makeNodeHTTP(proto) {
    loadBuffer();
    loadEvents();
    var lib = proto === "https:" ? "https" : "http";
    function IncomingMessage() {
      this.statusCode = 200;
      this.statusMessage = "OK";
      this.headers = { "content-type": "application/json" };
    }
    IncomingMessage.prototype = Object.create(EventEmitter.prototype);
    IncomingMessage.prototype.setEncoding = function () { return this; };
    IncomingMessage.prototype.resume = function () { return this; };
    IncomingMessage.prototype.pipe = function (d) { return d; };
    IncomingMessage.prototype[Symbol.asyncIterator] = function () {
      var done = false;
      return { next: function () { var r = { value: done ? undefined : Buffer.from("{}"), done: done }; done = true; return Promise.resolve(r); } };
    };

    function ClientRequest(url, opts, cb) {
      this._url = url;
      this._o = opts;
      this._cb = cb;
      this._chunks = [];
      this._h = assign({}, opts.headers);
      this._done = false;
    }
    ClientRequest.prototype = Object.create(EventEmitter.prototype);
    ClientRequest.prototype.setHeader = function (k, v) { this._h[k] = v; };
    ClientRequest.prototype.getHeader = function (k) { return this._h[k]; };
    ClientRequest.prototype.removeHeader = function (k) { delete this._h[k]; };
    ClientRequest.prototype.setTimeout = function () { return this; };
    ClientRequest.prototype.destroy = function () { return this; };
    ClientRequest.prototype.abort = function () {};
    ClientRequest.prototype.write = function (c) { this._chunks.push(str(c)); return true; };
    ClientRequest.prototype.end = function (c) {
      if (this._done) return this;
      this._done = true;
      if (c !== undefined && typeof c !== "function") this._chunks.push(str(c));
      var body = this._chunks.length ? this._chunks.join("") : null;
      record(lib, this._o.method || "GET", this._url, null, this._h, null, body);
      var self = this;
      setImmediateF(function () {
        var res = new IncomingMessage();
        if (typeof self._cb === "function") self._cb(res);
        self.emit("response", res);
        setImmediateF(function () {
          res.emit("data", Buffer.from("{}"));
          res.emit("end");
        });
      });
      return this;
    };

    function target(a, b, cb) {
      var opts = {};
      var url;
      if (typeof a === "string" || (URL && a instanceof URL)) {
        url = str(a);
        if (typeof b === "function") cb = b;
        else if (isObj(b)) opts = b;
      } else {
        opts = a || {};
        if (typeof b === "function") cb = b;
        var host = opts.hostname || opts.host || "localhost";
        var port = opts.port && str(opts.port) !== "443" && str(opts.port) !== "80" ? ":" + opts.port : "";
        url = (opts.protocol || proto) + "//" + host + port + (opts.path || "/");
      }
      return new ClientRequest(url, opts, cb);
    }
    var m = {
      request: function (a, b, c) { return target(a, b, c); },
      get: function (a, b, c) { var r = target(a, b, c); r._o = assign({}, r._o, { method: "GET" }); r.end(); return r; },
      Agent: function () {},
      globalAgent: {},
      STATUS_CODES: { 200: "OK", 404: "Not Found", 500: "Internal Server Error" },
      METHODS: ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"],
      IncomingMessage: IncomingMessage,
      ClientRequest: ClientRequest,
      createServer: refusing(lib + ".createServer"),
    };
    m.default = m;
    return m;
  }

  function makeUndici() {
    loadFetch();
    loadForm();
    function body() {
      return {
        json: function () { return Promise.resolve(makeData()); },
        text: function () { return Promise.resolve("{}"); },
        arrayBuffer: function () { return Promise.resolve(new ArrayBuffer(2)); },
        blob: function () { loadBlob(); return Promise.resolve(new Blob(["{}"])); },
      };
    }
    function request(url, opts) {
      opts = opts || {};
      var u = joinURL(opts.origin, isObj(url) && !(URL && url instanceof URL) ? url.path : url);
      var b = bodyOf(opts.body);
      record("undici", opts.method || "GET", u, opts.query, opts.headers, b.json, b.data);
      return Promise.resolve({ statusCode: 200, headers: { "content-type": "application/json" }, body: body(), trailers: {} });
    }
    function Client(origin) {
      this.origin = str(origin);
    }
    Client.prototype.request = function (o) { return request(o.path || "/", assign({}, o, { origin: this.origin })); };
    Client.prototype.close = function () { return Promise.resolve(); };
    var m = {
      request: request,
      fetch: makeFetch("undici"),
      Client: Client,
      Pool: Client,
      Agent: function () {},
      setGlobalDispatcher: function () {},
      getGlobalDispatcher: function () { return {}; },
      Headers: Headers,
      Request: Request,
      Response: Response,
      FormData: FormData,
    };
    m.default = m;
    return m;
  }

  // ---- Node built-ins: safe stubs and refusals, each made on first use ----
  function refusing(name) {
    return function () { throw new Error(name + " is not available in the sandbox"); };
  }

  // A module that reaches the system: requiring it works, using it throws.
  function refused(name) {
    return new Proxy(function () {}, {
      get: function (t, k) {
        if (k === "then" || typeof k === "symbol") return undefined;
        if (k === "__esModule") return false;
        return refusing("require('" + name + "')." + str(k));
      },
      apply: function () { refusing("require('" + name + "')")(); },
      construct: function () { refusing("require('" + name + "')")(); },
      getPrototypeOf: function () { return Object.prototype; },
    });
  }

  var b64chars, Buffer, btoa, atob, pathMod, qs, utilMod, cryptoMod, osMod, exitCode, processObj, timersMod, timersPromises;
  function loadBuffer() {
    if (Buffer) return;
    b64chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    Buffer = function Buffer(s) {
      this._s = str(s);
      this.length = this._s.length;
    };
    Buffer.from = function (v, enc) {
      if (v instanceof Buffer) return new Buffer(v._s);
      var s = str(v);
      if (enc === "base64") s = host.b64dec(s);
      else if (enc === "hex") s = s.replace(/../g, function (h) { return String.fromCharCode(parseInt(h, 16)); });
      return new Buffer(s);
    };
    Buffer.alloc = function (n) { return new Buffer(""); };
    Buffer.isBuffer = function (b) { return b instanceof Buffer; };
    Buffer.concat = function (l) { return new Buffer(l.map(function (b) { return b._s; }).join("")); };
    Buffer.byteLength = function (s) { return str(s).length; };
    Buffer.prototype.toString = function (enc) {
      if (enc === "base64") return host.b64enc(this._s);
      if (enc === "hex") return this._s.split("").map(function (c) { return ("0" + c.charCodeAt(0).toString(16)).slice(-2); }).join("");
      return this._s;
    };
    Buffer.prototype.toJSON = function () { return { type: "Buffer", data: [] }; };
    void b64chars;

    btoa = function btoa(s) { return host.b64enc(str(s)); };
    atob = function atob(s) { return host.b64dec(str(s)); };
  }

  function loadPath() {
    if (pathMod) return;
    pathMod = {
      sep: "/",
      join: function () { return Array.prototype.slice.call(arguments).map(str).join("/").replace(/\/+/g, "/"); },
      resolve: function () { var a = Array.prototype.slice.call(arguments).map(str); var p = a.join("/"); return p.charAt(0) === "/" ? p : "/sandbox/" + p; },
      basename: function (p, ext) { var b = str(p).replace(/\/+$/, "").split("/").pop(); return ext && b.slice(-ext.length) === ext ? b.slice(0, -ext.length) : b; },
      dirname: function (p) { var s = str(p).split("/"); s.pop(); return s.join("/") || "."; },
      extname: function (p) { var m = /\.[^.\/]*$/.exec(str(p)); return m ? m[0] : ""; },
      normalize: function (p) { return str(p); },
      isAbsolute: function (p) { return str(p).charAt(0) === "/"; },
      relative: function (a, b) { return str(b); },
      parse: function (p) { return { root: "", dir: pathMod.dirname(p), base: pathMod.basename(p), ext: pathMod.extname(p), name: pathMod.basename(p, pathMod.extname(p)) }; },
      format: function (o) { return (o.dir ? o.dir + "/" : "") + (o.base || o.name + (o.ext || "")); },
    };
    pathMod.posix = pathMod;
  }

  function loadQs() {
    if (qs) return;
    qs = {
      stringify: function (o) { loadURL(); return new URLSearchParams(isObj(o) ? o : {}).toString(); },
      parse: function (s) { loadURL(); var out = {}; new URLSearchParams(str(s)).forEach(function (v, k) { out[k] = v; }); return out; },
      escape: encodeURIComponent,
      unescape: decodeURIComponent,
    };
    qs.encode = qs.stringify;
    qs.decode = qs.parse;
  }

  function loadUtil() {
    if (utilMod) return;
    utilMod = {
      format: function () { return Array.prototype.slice.call(arguments).map(function (a) { return fmt(a); }).join(" "); },
      inspect: function (v) { return fmt(v); },
      promisify: function (fn) {
        return function () {
          var args = Array.prototype.slice.call(arguments);
          var self = this;
          return new Promise(function (resolve, reject) {
            args.push(function (err, v) { if (err) reject(err); else resolve(v); });
            fn.apply(self, args);
          });
        };
      },
      inherits: function (c, p) { Object.setPrototypeOf(c.prototype, p.prototype); },
      isDeepStrictEqual: function (a, b) { return JSON.stringify(a) === JSON.stringify(b); },
      types: {},
      TextEncoder: function () {},
      TextDecoder: function () {},
    };
  }

  function loadCrypto() {
    if (cryptoMod) return;
    cryptoMod = {
      createHash: function () {
        var h = { update: function () { return h; }, digest: function () { return "0000000000000000000000000000000000000000"; } };
        return h;
      },
      createHmac: function () {
        var h = { update: function () { return h; }, digest: function () { return "0000000000000000000000000000000000000000"; } };
        return h;
      },
      randomUUID: function () { return "00000000-0000-4000-8000-000000000000"; },
      randomBytes: function (n) { loadBuffer(); return Buffer.from("0".repeat(Math.min(Number(n) || 0, 1024))); },
      randomInt: function () { return 1; },
      getRandomValues: function (a) { return a; },
      subtle: makeStub("subtle"),
    };
  }

  function loadOs() {
    if (osMod) return;
    osMod = {
      platform: function () { return "linux"; }, type: function () { return "Linux"; }, arch: function () { return "x64"; },
      homedir: function () { return "/sandbox"; }, tmpdir: function () { return "/tmp"; }, hostname: function () { return "sandbox"; },
      cpus: function () { return [{}]; }, totalmem: function () { return 1 << 30; }, freemem: function () { return 1 << 29; },
      EOL: "\n", userInfo: function () { return { username: "sandbox" }; }, release: function () { return "6.0.0"; },
    };
  }

  function loadProcess() {
    if (processObj) return;
    exitCode = 0;
    processObj = {
      env: {},
      argv: ["node", "/sandbox/main.js"],
      execArgv: [],
      platform: "linux",
      arch: "x64",
      pid: 1,
      ppid: 0,
      version: "v20.0.0",
      versions: { node: "20.0.0" },
      release: { name: "node" },
      title: "node",
      cwd: function () { return "/sandbox"; },
      chdir: refusing("process.chdir"),
      exit: function (code) { host.exit(code === undefined ? exitCode : Number(code) || 0); },
      abort: function () { host.exit(134); },
      kill: refusing("process.kill"),
      binding: refusing("process.binding"),
      _linkedBinding: refusing("process._linkedBinding"),
      dlopen: refusing("process.dlopen"),
      nextTick: function (fn) { var a = Array.prototype.slice.call(arguments, 1); Promise.resolve().then(function () { fn.apply(undefined, a); }); },
      hrtime: Object.assign(function () { return [0, clock * 1e6]; }, { bigint: function () { return 0; } }),
      uptime: function () { return clock / 1000; },
      memoryUsage: function () { return { rss: 0, heapUsed: 0, heapTotal: 0 }; },
      cpuUsage: function () { return { user: 0, system: 0 }; },
      on: function () { return processObj; },
      once: function () { return processObj; },
      off: function () { return processObj; },
      emit: function () { return false; },
      emitWarning: function () {},
      stdout: { write: function (s) { host.console("log", str(s)); return true; }, isTTY: false },
      stderr: { write: function (s) { host.console("error", str(s)); return true; }, isTTY: false },
      stdin: makeStub("stdin"),
    };
    Object.defineProperty(processObj, "exitCode", { get: function () { return exitCode; }, set: function (v) { exitCode = Number(v) || 0; } });
  }

  function loadTimers() {
    if (timersMod) return;
    timersMod = { setTimeout: setTimeoutF, setInterval: setIntervalF, setImmediate: setImmediateF, clearTimeout: clearF, clearInterval: clearF, clearImmediate: clearF };
    timersPromises = {
      setTimeout: function (ms, v) { return sleep(ms, v); },
      setImmediate: function (v) { return sleep(0, v); },
      setInterval: function () { return makeStub("interval"); },
      scheduler: { wait: function (ms) { return sleep(ms); } },
    };
  }

  var stubModules = {};
  function stubModule(name) {
    if (!stubModules[name]) {
      host.stubbed(name);
      stubModules[name] = makeStub(name);
    }
    return stubModules[name];
  }

  var systemModules = ["fs", "fs/promises", "child_process", "net", "tls", "dgram", "dns", "dns/promises", "cluster",
    "worker_threads", "vm", "v8", "inspector", "module", "http2", "repl", "readline", "perf_hooks", "async_hooks",
    "trace_events", "wasi", "diagnostics_channel", "tty", "sqlite", "test"];

  // ---- Angular's HttpClient ----------------------------------------------------------

  // makeAngularHTTP: @angular/common/http. A request is recorded when the code makes
  // it (Angular sends it on subscribe; the code names it either way) and answered by
  // an observable that emits the data once; HttpHeaders and HttpParams are the
  // immutable maps Angular's are.
  function makeAngularHTTP() {
    loadURL();
    function KV(init) {
      this._m = {};
      var o = isObj(init) && (init.fromObject || init.fromString) ? (init.fromObject || init.fromString) : init;
      if (typeof o === "string") {
        var self = this;
        new URLSearchParams(o).forEach(function (v, k) { self._m[k] = v; });
      } else if (isObj(o)) {
        assign(this._m, o);
      }
    }
    KV.prototype = {
      _with: function (k, v, drop) {
        var c = Object.create(Object.getPrototypeOf(this));
        c._m = assign({}, this._m);
        if (drop) delete c._m[str(k)]; else c._m[str(k)] = v;
        return c;
      },
      set: function (k, v) { return this._with(k, v); },
      append: function (k, v) { return this._with(k, v); },
      delete: function (k) { return this._with(k, undefined, true); },
      get: function (k) { var v = this._m[str(k)]; return v === undefined ? null : v; },
      has: function (k) { return hasOwn.call(this._m, str(k)); },
      keys: function () { return Object.keys(this._m); },
      toString: function () { return new URLSearchParams(this._m).toString(); },
    };
    function HttpHeaders(init) { KV.call(this, init); }
    HttpHeaders.prototype = Object.create(KV.prototype);
    function HttpParams(init) { KV.call(this, init); }
    HttpParams.prototype = Object.create(KV.prototype);
    function plain(x) { return x instanceof KV ? x._m : x; }
    function observable(value) {
      var o = {
        subscribe: function (next, error, complete) {
          var n = typeof next === "function" ? next : isObj(next) ? next.next : null;
          var c = typeof complete === "function" ? complete : isObj(next) ? next.complete : null;
          if (typeof n === "function") n(value);
          if (typeof c === "function") c();
          return { unsubscribe: function () {} };
        },
        pipe: function () { return o; },
        toPromise: function () { return Promise.resolve(value); },
      };
      return o;
    }
    function send(method, url, body, opts) {
      opts = isObj(opts) ? opts : {};
      var b = bodyOf(body);
      record("angular", method, url, plain(opts.params), plain(opts.headers), b.json, b.data);
      return observable(makeData());
    }
    function HttpClient() {}
    HttpClient.prototype.request = function (method, url, opts) {
      if (isObj(method) && method.url !== undefined) return send(method.method || "GET", method.urlWithParams || method.url, method.body, method);
      return send(method, url, isObj(opts) ? opts.body : undefined, opts);
    };
    ["get", "delete", "head", "options", "jsonp"].forEach(function (m) {
      HttpClient.prototype[m] = function (url, opts) { return send(m === "jsonp" ? "GET" : m, url, undefined, opts); };
    });
    ["post", "put", "patch"].forEach(function (m) {
      HttpClient.prototype[m] = function (url, body, opts) { return send(m, url, body, opts); };
    });
    function HttpRequest(method, url, third, fourth) {
      var withBody = /^(POST|PUT|PATCH)$/i.test(str(method));
      var init = (withBody ? fourth : third) || {};
      this.method = method; this.url = url; this.body = withBody ? third : null;
      this.headers = init.headers; this.params = init.params; this.urlWithParams = url;
    }
    var m = { HttpClient: HttpClient, HttpHeaders: HttpHeaders, HttpParams: HttpParams, HttpRequest: HttpRequest,
      HttpErrorResponse: Error, HttpClientModule: {}, provideHttpClient: function () { return {}; },
      withFetch: function () { return {}; }, withInterceptors: function () { return {}; } };
    return withStubs(m, "@angular/common/http");
  }

  // angularClient is an HttpClient for a constructor parameter that takes one.
  function angularClient() { return new (requireF("@angular/common/http").HttpClient)(); }

  // makeAngularCore: @angular/core's decorators as no-ops and inject(HttpClient)
  // giving a client; the rest stubs.
  function makeAngularCore() {
    loadEvents();
    var deco = function () { return function (t) { return t; }; };
    var m = { Injectable: deco, Component: deco, NgModule: deco, Input: deco, Output: deco, Directive: deco, Pipe: deco,
      inject: function (t) { return t === requireF("@angular/common/http").HttpClient ? angularClient() : makeStub("inject"); },
      EventEmitter: EventEmitter };
    return withStubs(m, "@angular/core");
  }

  // ---- React and the DOM ---------------------------------------------------------

  // makeReact: React's hooks as one render that never renders again: state holds
  // its initial value (setters do nothing), effects are handed to the driver to run
  // after the render as React would, a memoized callback is the callback. Anything
  // else React exports (Component, Fragment, lazy, …) is a stub.
  function makeReact() {
    var noop = function () {};
    var effect = function (fn) { hand([fn]); };
    var R = {
      useState: function (v) { return [typeof v === "function" ? v() : v, noop]; },
      useReducer: function (r, v, init) { return [typeof init === "function" ? init(v) : v, noop]; },
      useEffect: effect, useLayoutEffect: effect, useInsertionEffect: effect,
      useCallback: function (fn) { return fn; },
      useMemo: function (fn) { return typeof fn === "function" ? fn() : undefined; },
      useRef: function (v) { return { current: v }; },
      createRef: function () { return { current: null }; },
      createContext: function (v) { return { _value: v, Provider: makeStub("Provider"), Consumer: makeStub("Consumer") }; },
      useContext: function (c) { return isObj(c) && hasOwn.call(c, "_value") && c._value !== undefined ? c._value : makeStub("context"); },
      useId: function () { return ":r0:"; },
      useTransition: function () { return [false, function (f) { if (typeof f === "function") f(); }]; },
      useDeferredValue: function (v) { return v; },
      useSyncExternalStore: function (sub, get) { return typeof get === "function" ? get() : undefined; },
      useImperativeHandle: noop, useDebugValue: noop,
      forwardRef: function (f) { return f; },
      memo: function (c) { return c; },
      createElement: function () { return makeStub("element"); },
    };
    return withStubs(R, "react");
  }

  // makeElement: a DOM element with no children, so loops that empty or walk the
  // page end (while (list.firstChild) list.removeChild(...)), and the value a user
  // would have typed when the code found it by key; its listeners are handed to the
  // driver; any other property is a stub.
  function makeElement(tag, key) {
    var kids = [];
    var listen = function (type, fn) { hand([fn]); };
    var el = {
      tagName: str(tag || "div").toUpperCase(), nodeType: 1, id: "", className: "",
      // a field the code looks up by id or selector holds what a user would type
      // there (a name, a number, a date, by its name or type), as a page does
      value: key === undefined ? "" : host.field(str(key)), checked: false,
      textContent: "", innerHTML: "", innerText: "", outerHTML: "", src: "", href: "",
      style: {}, dataset: {}, parentNode: null, parentElement: null,
      classList: { add: function () {}, remove: function () {}, toggle: function () { return false; }, contains: function () { return false; } },
      appendChild: function (c) { kids.push(c); return c; },
      append: function () { for (var i = 0; i < arguments.length; i++) kids.push(arguments[i]); },
      prepend: function () { for (var i = arguments.length - 1; i >= 0; i--) kids.unshift(arguments[i]); },
      insertBefore: function (c) { kids.unshift(c); return c; },
      removeChild: function (c) { var i = kids.indexOf(c); if (i >= 0) kids.splice(i, 1); return c; },
      replaceChildren: function () { kids.length = 0; },
      remove: function () {}, setAttribute: function () {}, removeAttribute: function () {},
      getAttribute: function () { return null; }, hasAttribute: function () { return false; },
      addEventListener: listen, removeEventListener: function () {},
      querySelector: function () { return null; }, querySelectorAll: function () { return []; },
      getElementsByClassName: function () { return []; }, getElementsByTagName: function () { return []; },
      insertAdjacentHTML: function () {}, insertAdjacentElement: function (p, e) { return e; },
      cloneNode: function () { return makeElement(tag); },
      focus: function () {}, blur: function () {}, click: function () {}, reset: function () {}, submit: function () {},
      getBoundingClientRect: function () { return { top: 0, left: 0, width: 0, height: 0 }; },
    };
    var first = function () { return kids.length ? kids[0] : null; };
    var last = function () { return kids.length ? kids[kids.length - 1] : null; };
    var live = { children: function () { return kids.slice(); }, childNodes: function () { return kids.slice(); },
      firstChild: first, firstElementChild: first, lastChild: last, lastElementChild: last,
      childElementCount: function () { return kids.length; } };
    Object.keys(live).forEach(function (k) { Object.defineProperty(el, k, { get: live[k], enumerable: true }); });
    // a handler property nobody set (onclick) is null, as on a page
    return withStubs(el, "element", function (k) { return /^on[a-z]+$/.test(k) ? null : makeStub("element"); });
  }

  // makeDocument: the page: one element per id or selector asked for, created
  // elements, and listeners handed to the driver.
  function makeDocument() {
    var byKey = {};
    var one = function (k) { k = str(k); if (!hasOwn.call(byKey, k)) byKey[k] = makeElement("div", k); return byKey[k]; };
    var doc = {
      readyState: "complete", cookie: "", title: "", referrer: "", URL: "https://example.com/",
      body: makeElement("body"), head: makeElement("head"), documentElement: makeElement("html"),
      getElementById: one, querySelector: one,
      querySelectorAll: function () { return []; }, getElementsByClassName: function () { return []; },
      getElementsByTagName: function () { return []; }, getElementsByName: function () { return []; },
      createElement: function (t) { return makeElement(t); }, createTextNode: function (t) { return { nodeType: 3, textContent: str(t) }; },
      createDocumentFragment: function () { return makeElement("fragment"); },
      addEventListener: function (type, fn) { hand([fn]); }, removeEventListener: function () {},
    };
    return withStubs(doc, "document");
  }

  // makeModule: the module a require of name gets (undefined: none of ours).
  function makeModule(n) {
    switch (n) {
      case "axios": return makeAxios();
      case "node-fetch": case "cross-fetch": case "isomorphic-fetch": case "isomorphic-unfetch":
        loadFetch();
        return fetchModule(n);
      case "got": return makeGot();
      case "ky": case "ky-universal": return makeKy();
      case "superagent": return makeSuperagent();
      case "unirest": return makeUnirest();
      case "request": return makeRequestLib(false);
      case "request-promise": case "request-promise-native": return makeRequestLib(true);
      case "jquery": return makeJQuery();
      case "https": return makeNodeHTTP("https:");
      case "http": return makeNodeHTTP("http:");
      case "undici": return makeUndici();
      case "events": loadEvents(); return EventEmitter;
      case "react": case "preact/compat": case "preact/hooks": return makeReact();
      case "@angular/common/http": return makeAngularHTTP();
      case "@angular/core": return makeAngularCore();
    }
    switch (n) {
      case "url":
        loadURL();
        return { URL: URL, URLSearchParams: URLSearchParams, parse: function (u) { var x = new URL(u); return { protocol: x.protocol, host: x.host, hostname: x.hostname, port: x.port, pathname: x.pathname, search: x.search, query: x.search.slice(1), path: x.pathname + x.search, href: x.href }; }, format: function (u) { return u instanceof URL ? u.href : (u.protocol || "https:") + "//" + (u.host || u.hostname) + (u.pathname || "") + (u.search || ""); }, resolve: function (a, b) { return new URL(b, a).href; }, fileURLToPath: function (u) { return str(u).replace(/^file:\/\//, ""); }, pathToFileURL: function (p) { return new URL("file://" + p); } };
      case "querystring": loadQs(); return qs;
      case "path": case "path/posix": loadPath(); return pathMod;
      case "util": loadUtil(); return utilMod;
      case "crypto": loadCrypto(); return cryptoMod;
      case "os": loadOs(); return osMod;
      case "buffer": loadBuffer(); return { Buffer: Buffer };
      case "process": loadProcess(); return processObj;
      case "timers": loadTimers(); return timersMod;
      case "timers/promises": loadTimers(); return timersPromises;
      case "assert": case "assert/strict":
        return Object.assign(function (c, m) { if (!c) throw new Error(m || "assertion failed"); }, { ok: function (c, m) { if (!c) throw new Error(m || "assertion failed"); }, equal: function () {}, strictEqual: function () {}, deepStrictEqual: function () {} });
      case "stream": loadEvents(); return { Readable: EventEmitter, Writable: EventEmitter, Transform: EventEmitter, PassThrough: EventEmitter, pipeline: function () {} };
      case "stream/promises": return { pipeline: function () { return Promise.resolve(); } };
      case "zlib": return makeStub("zlib");
      case "string_decoder": return { StringDecoder: function () { this.write = str; this.end = function () { return ""; }; } };
    }
    if (n === "fs") return makeFS();
    if (n === "fs/promises") return makeFS().promises;
    if (systemModules.indexOf(n) >= 0) return refused(n);
    return undefined;
  }

  // makeFS: fs as an empty, read-only file system: directories list nothing, a
  // file read is ENOENT, existsSync is false; every write (and a watch, an open
  // for writing) stays refused. Callbacks are called after the current job, as
  // Node calls them.
  var fsMod;
  function makeFS() {
    if (fsMod) return fsMod;
    var enoent = function (op, p) {
      var e = new Error("ENOENT: no such file or directory, " + op + " '" + str(p) + "'");
      e.code = "ENOENT"; e.errno = -2; e.syscall = op; e.path = str(p);
      return e;
    };
    var later = function (args, err, v) {
      for (var i = args.length - 1; i >= 0; i--) {
        if (typeof args[i] === "function") {
          var cb = args[i];
          Promise.resolve().then(function () { cb(err, v); });
          return;
        }
      }
    };
    var missing = function (op) { return function (p) { throw enoent(op, p); }; };
    var missingCb = function (op) { return function (p) { later(arguments, enoent(op, p)); }; };
    var missingP = function (op) { return function (p) { return Promise.reject(enoent(op, p)); }; };
    var statSync = function (p, o) { if (isObj(o) && o.throwIfNoEntry === false) return undefined; throw enoent("stat", p); };
    fsMod = {
      constants: { F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1 },
      existsSync: function () { return false; },
      exists: function (p, cb) { if (typeof cb === "function") Promise.resolve().then(function () { cb(false); }); },
      readdirSync: function () { return []; },
      readdir: function () { later(arguments, null, []); },
      readFileSync: missing("open"), readFile: missingCb("open"),
      statSync: statSync, lstatSync: statSync, accessSync: missing("access"), realpathSync: missing("realpath"),
      stat: missingCb("stat"), lstat: missingCb("lstat"), access: missingCb("access"), realpath: missingCb("realpath"),
      createReadStream: missing("open"), opendirSync: missing("opendir"),
    };
    fsMod.promises = {
      readdir: function () { return Promise.resolve([]); },
      readFile: missingP("open"), stat: missingP("stat"), lstat: missingP("lstat"), access: missingP("access"),
      realpath: missingP("realpath"), opendir: missingP("opendir"),
    };
    // what writes, watches or opens a file is refused, as every system module is
    ["writeFileSync", "writeFile", "appendFileSync", "appendFile", "mkdirSync", "mkdir", "rmSync", "rm", "rmdirSync",
      "rmdir", "unlinkSync", "unlink", "renameSync", "rename", "copyFileSync", "copyFile", "cpSync", "cp",
      "createWriteStream", "watch", "watchFile", "openSync", "open", "chmodSync", "chmod", "symlinkSync", "symlink",
      "truncateSync", "truncate", "utimesSync", "utimes", "mkdtempSync", "mkdtemp"].forEach(function (k) {
      fsMod[k] = refusing("require('fs')." + k);
    });
    ["writeFile", "appendFile", "mkdir", "rm", "rmdir", "unlink", "rename", "copyFile", "cp", "open", "chmod", "mkdtemp"].forEach(function (k) {
      fsMod.promises[k] = function () { return Promise.reject(new Error("require('fs/promises')." + k + " is not available in the sandbox")); };
    });
    return fsMod;
  }

  var modules = {};
  function requireF(name) {
    var n = str(name);
    if (n.slice(0, 5) === "node:") n = n.slice(5);
    if (hasOwn.call(modules, n)) return modules[n];
    var m = makeModule(n);
    if (m === undefined) {
      // a subpath of a module of ours (axios/dist/node/axios.cjs), else a stub
      var base = n.charAt(0) === "@" ? n.split("/").slice(0, 2).join("/") : n.split("/")[0];
      m = base !== n && systemModules.indexOf(base) < 0 ? makeModule(base) : undefined;
      if (m === undefined) m = systemModules.indexOf(base) >= 0 ? refused(n) : stubModule(n);
    }
    modules[n] = m;
    return m;
  }
  requireF.resolve = function (n) { return str(n); };
  requireF.cache = {};
  requireF.main = undefined;

  // ---- globals ---------------------------------------------------------------------

  G.console = consoleObj;
  G.setTimeout = setTimeoutF;
  G.setInterval = setIntervalF;
  G.setImmediate = setImmediateF;
  G.clearTimeout = G.clearInterval = G.clearImmediate = clearF;
  G.queueMicrotask = function (fn) { Promise.resolve().then(fn); };
  G.global = G.self = G;
  G.fetch = function fetch(input, init) {
    loadFetch();
    return fetchF(input, init);
  };
  G.XMLHttpRequest = XMLHttpRequest;
  G.structuredClone = function (v) { return JSON.parse(JSON.stringify(v)); };

  // The globals made only for code that names them (the Go side reads the names
  // off the syntax tree): most completions use few of them.
  var lazyNames = ["URL", "URLSearchParams", "Headers", "FormData", "AbortController", "AbortSignal", "Blob",
    "Request", "Response", "process", "Buffer", "btoa", "atob", "TextEncoder", "TextDecoder", "performance", "crypto"];

  function lazyValue(n) {
    switch (n) {
      case "TextEncoder": return function TextEncoder() { this.encode = function (s) { return str(s); }; };
      case "TextDecoder": return function TextDecoder() { this.decode = function (s) { return str(s); }; };
      case "performance": return { now: function () { return clock; }, mark: function () {}, measure: function () {} };
      case "crypto":
        loadCrypto();
        return { randomUUID: cryptoMod.randomUUID, getRandomValues: function (a) { return a; }, subtle: makeStub("subtle") };
      case "process": case "Buffer": case "btoa": case "atob":
        return N(n);
    }
    return W(n);
  }

  function W(n) {
    switch (n) {
      case "URL": loadURL(); return URL;
      case "URLSearchParams": loadURL(); return URLSearchParams;
      case "Headers": loadHeaders(); return Headers;
      case "FormData": loadForm(); return FormData;
      case "AbortController": loadAbort(); return AbortController;
      case "AbortSignal": loadAbort(); return AbortSignal;
      case "Blob": loadBlob(); return Blob;
      case "Request": loadFetch(); return Request;
      case "Response": loadFetch(); return Response;
    }
  }
  function N(n) {
    switch (n) {
      case "process": loadProcess(); return processObj;
      case "Buffer": loadBuffer(); return Buffer;
      case "btoa": loadBuffer(); return btoa;
      case "atob": loadBuffer(); return atob;
    }
  }

  // Names a browser script reads as globals: bound to recorders when the code uses
  // them without defining them.
  function knownGlobal(n) {
    switch (n) {
      case "axios": return requireF("axios");
      case "$": case "jQuery": return requireF("jquery");
      case "got": return requireF("got");
      case "ky": return requireF("ky");
      case "superagent": return requireF("superagent");
      case "unirest": return requireF("unirest");
      case "window": pageGlobals(); return G;
      case "document": return makeDocument();
      case "location": return pageLocation();
      case "localStorage": return pageStorage("localStorage");
      case "sessionStorage": return pageStorage("sessionStorage");
    }
    return undefined;
  }

  // ---- the page's address and storage ----------------------------------------------

  var pageQueryString = "", locationObj, storages = {};

  // pageLocation: the page's address, its query string carrying the keys the code
  // reads from it (setPageQuery); navigation does nothing.
  function pageLocation() {
    if (locationObj) return locationObj;
    var search = pageQueryString ? "?" + pageQueryString : "";
    locationObj = {
      href: "https://example.com/" + search, origin: "https://example.com", protocol: "https:", host: "example.com",
      hostname: "example.com", port: "", pathname: "/", search: search, hash: "",
      assign: function () {}, replace: function () {}, reload: function () {},
      toString: function () { return locationObj.href; },
    };
    return locationObj;
  }

  // pageStorage: an empty Web Storage kept in memory for the run: getItem of a key
  // nobody set is null, as on a fresh page.
  function pageStorage(name) {
    if (storages[name]) return storages[name];
    var m = {};
    var st = {
      getItem: function (k) { k = str(k); return hasOwn.call(m, k) ? m[k] : null; },
      setItem: function (k, v) { m[str(k)] = str(v); },
      removeItem: function (k) { delete m[str(k)]; },
      clear: function () { m = {}; },
      key: function (i) { var ks = Object.keys(m); return i < ks.length ? ks[i] : null; },
    };
    Object.defineProperty(st, "length", { get: function () { return Object.keys(m).length; } });
    storages[name] = st;
    return st;
  }

  // pageGlobals: what a page's window carries besides the globals the code names.
  function pageGlobals() {
    if (!hasOwn.call(G, "location")) G.location = pageLocation();
    if (!hasOwn.call(G, "localStorage")) G.localStorage = pageStorage("localStorage");
    if (!hasOwn.call(G, "sessionStorage")) G.sessionStorage = pageStorage("sessionStorage");
  }

  // ---- dummies -------------------------------------------------------------------------

  // dummy builds an argument from its description (chosen by the Go side from the
  // parameter's name and uses): {s: string}, {n: number}, {a: 1} an array, {f: 1} a
  // function, {o: 1} an empty object, {x: name} a stub, {h: 1} Angular's HttpClient,
  // {k: {key: description}} an object, {u: 1} undefined.
  function dummy(d) {
    if (d.s !== undefined) return d.s;
    if (d.n !== undefined) return d.n;
    if (d.a) return ["test"];
    if (d.f) return function () {};
    if (d.o) return {};
    if (d.x !== undefined) {
      var st = makeStub(d.x);
      if (d.p) for (var pk in d.p) if (hasOwn.call(d.p, pk)) st[pk] = d.p[pk];
      return st;
    }
    if (d.h) return angularClient();
    if (d.k) {
      var o = {};
      var ks = Object.keys(d.k);
      for (var i = 0; i < ks.length; i++) o[ks[i]] = dummy(d.k[ks[i]]);
      return o;
    }
    return undefined;
  }

  function args(list) {
    var out = [];
    for (var i = 0; i < list.length; i++) out.push(dummy(list[i]));
    return out;
  }

  // ---- the driver's entry points ---------------------------------------------------------

  var lookup = null;
  var moduleObj = { exports: {} };
  var instances = {};

  // isName: /^[A-Za-z_$][\w$]*$/.test(s)
  function isName(s) {
    if (typeof s !== "string" || !s.length) return false;
    for (var i = 0; i < s.length; i++) {
      var c = s.charCodeAt(i);
      if (isLetter(c) || c === 95 || c === 36 || (i > 0 && c >= 48 && c <= 57)) continue;
      return false;
    }
    return true;
  }

  function find(name) {
    try {
      // the lookup evaluates its argument in the module's scope: a name only
      if (lookup && isName(name)) {
        var v = lookup(name);
        if (v !== undefined) return v;
      }
    } catch (e) {}
    var ex = moduleObj.exports;
    if (isObj(ex)) {
      if (name === "default" && ex.default !== undefined) return ex.default;
      try {
        if (ex[name] !== undefined) return ex[name];
        if (typeof ex === "function" && ex.name === name) return ex;
        if (isObj(ex.default) && ex.default[name] !== undefined) return ex.default[name];
      } catch (e) {}
    }
    return undefined;
  }

  // target: the function to call for a def ("f", "Class.method", "obj.m") and what
  // `this` it gets; null when there is none.
  function target(def) {
    var dot = def.indexOf(".");
    if (dot < 0) {
      var f = find(def);
      return typeof f === "function" ? { fn: f, self: undefined } : null;
    }
    var owner = def.slice(0, dot), m = def.slice(dot + 1);
    var o = find(owner);
    if (!isObj(o)) return null;
    if (typeof o === "function" && o.prototype && typeof o.prototype[m] === "function" && typeof o[m] !== "function") {
      if (!hasOwn.call(instances, owner)) {
        var inst;
        try {
          inst = new o(...args(drive.ctorArgs[owner] || []));
        } catch (e) {
          try {
            inst = Object.create(o.prototype);
          } catch (e2) {
            inst = null;
          }
        }
        instances[owner] = inst;
      }
      var self = instances[owner];
      return self ? { fn: self[m], self: self } : null;
    }
    // owner.a.b.m: the path walked to the object the function was set on
    var path = m.split(".");
    for (var i = 0; i < path.length - 1; i++) {
      o = o[path[i]];
      if (!isObj(o)) return null;
    }
    var fn = o[path[path.length - 1]];
    return typeof fn === "function" ? { fn: fn, self: o } : null;
  }

  // drive calls def with arguments built from their descriptions (JSON); it
  // returns what the call returned.
  function drive(def, argsJSON) {
    var t = target(def);
    if (!t) return { missing: true };
    return { value: applyTo(t.fn, t.self, args(JSON.parse(argsJSON))) };
  }
  drive.ctorArgs = {};

  return {
    require: requireF,
    module: moduleObj,
    setLookup: function (f) { lookup = f; },
    lazyNames: lazyNames,
    installGlobals: function (names) {
      for (var i = 0; i < names.length; i++) {
        if (!hasOwn.call(G, names[i])) G[names[i]] = lazyValue(names[i]);
      }
    },
    bindGlobals: function (names) {
      for (var i = 0; i < names.length; i++) {
        var n = names[i];
        if (hasOwn.call(G, n)) continue;
        var v;
        v = knownGlobal(n);
        if (v === undefined) {
          host.undefined(n);
          v = makeStub(n);
        }
        Object.defineProperty(G, n, { value: v, writable: true, configurable: true });
      }
    },
    // bindElements: names the code declares only in an inner scope, read anywhere
    // else as a browser reads them: the page's element of that id.
    setPageQuery: function (q) { pageQueryString = str(q); },
    bindElements: function (names) {
      for (var i = 0; i < names.length; i++) {
        if (hasOwn.call(G, names[i])) continue;
        Object.defineProperty(G, names[i], { value: makeElement("input", names[i]), writable: true, configurable: true });
      }
    },
    drive: drive,
    handed: function () { return handed.length; },
    callHanded: function (i) {
      var h = handed[i];
      var self = typeof h.self === "function" ? h.self() : h.self;
      return { value: applyTo(h.fn, self, [makeStub("req"), makeStub("res"), makeStub("next")]) };
    },
    setCtorArgs: function (c) { drive.ctorArgs = JSON.parse(c); },
    tick: tick,
    pending: function () { return nlive; },
  };
})
