package jsbox

import (
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"

	"sccg/evaluate/sandbox"
	"sccg/lang"
)

//go:embed harness.js
var harnessSource string

// Bounds of one completion inside its runtime.
const (
	maxRequests   = 100     // requests kept; the next one ends the run (as a success)
	maxTimerCalls = 1000    // timer callbacks fired, across the run
	maxConsole    = 8 << 10 // bytes of console output kept
	maxStackDepth = 4000    // JavaScript call depth
	maxStubbed    = 50      // names listed in Stubbed and Undefined
	maxTargets    = 40      // definitions called when no function is named
	maxBodyString = 2000    // bytes of a string body kept
)

// Why a runtime was interrupted.
var (
	errTimeout = errors.New("wall-clock timeout")
	errMemory  = errors.New("memory limit")
	errEnough  = errors.New("request limit")
)

// exitSignal is process.exit(code).
type exitSignal struct{ code int }

// job is one completion to run.
type job struct {
	Lang     string `json:"lang"`
	Code     string `json:"code"`
	Function string `json:"function"`
	// TimeoutMS bounds the run's wall-clock time inside the runtime.
	TimeoutMS int `json:"timeout_ms"`
}

// engine runs completions, each in a fresh goja runtime. It holds what every
// runtime shares and no completion can change: the compiled harness and the names
// of the runtime's globals.
type engine struct {
	harness  *goja.Program
	builtins map[string]bool
	// lazy are the globals the harness makes only for code that names them.
	lazy map[string]bool

	mu      sync.Mutex
	current *goja.Runtime // the runtime running now, for the memory watch
}

// newEngine compiles the harness once.
func newEngine() (*engine, error) {
	prg, err := goja.Compile("harness.js", harnessSource, true)
	if err != nil {
		return nil, fmt.Errorf("jsbox: compile harness: %w", err)
	}
	e := &engine{harness: prg}
	vm := goja.New()
	api, err := e.setup(vm, &host{})
	if err != nil {
		return nil, fmt.Errorf("jsbox: run harness: %w", err)
	}
	names, err := vm.RunString("Object.getOwnPropertyNames(globalThis)")
	if err != nil {
		return nil, fmt.Errorf("jsbox: list globals: %w", err)
	}
	e.builtins = map[string]bool{}
	for _, n := range names.Export().([]any) {
		e.builtins[n.(string)] = true
	}
	e.lazy = map[string]bool{}
	for _, n := range api.get("lazyNames").Export().([]any) {
		e.builtins[n.(string)] = true
		e.lazy[n.(string)] = true
	}
	return e, nil
}

// interrupt stops the runtime running now, if any.
func (e *engine) interrupt(v any) {
	e.mu.Lock()
	if e.current != nil {
		e.current.Interrupt(v)
	}
	e.mu.Unlock()
}

func (e *engine) setCurrent(vm *goja.Runtime) {
	e.mu.Lock()
	e.current = vm
	e.mu.Unlock()
}

// harnessAPI is what the harness returns to the driver.
type harnessAPI struct {
	obj *goja.Object
}

func (h harnessAPI) get(name string) goja.Value { return h.obj.Get(name) }

func (h harnessAPI) call(name string, args ...goja.Value) (goja.Value, error) {
	f, ok := goja.AssertFunction(h.obj.Get(name))
	if !ok {
		return nil, fmt.Errorf("harness has no %s", name)
	}
	return f(goja.Undefined(), args...)
}

// setup runs the harness in vm with host as its Go side.
func (e *engine) setup(vm *goja.Runtime, h *host) (harnessAPI, error) {
	vm.SetMaxCallStackSize(maxStackDepth)
	v, err := vm.RunProgram(e.harness)
	if err != nil {
		return harnessAPI{}, err
	}
	f, ok := goja.AssertFunction(v)
	if !ok {
		return harnessAPI{}, errors.New("harness is not a function")
	}
	h.vm = vm
	api, err := f(goja.Undefined(), h.object(vm))
	if err != nil {
		return harnessAPI{}, err
	}
	return harnessAPI{obj: api.ToObject(vm)}, nil
}

// phases are where a run's CPU time went (the process's, garbage collection and
// esbuild's goroutines included: a worker runs one completion at a time).
type phases struct {
	transform, parse, runtime, code time.Duration
	// cpuSetup is all before the code runs, cpuCode the code with its targets.
	cpuSetup, cpuCode time.Duration
	// cpuEnd is the process's CPU time when the run ended, cpuTotal the run's.
	cpuEnd, cpuTotal time.Duration
}

// run runs one completion in a fresh runtime. The process's CPU time is read
// once at each phase's end (a getrusage costs microseconds).
func (e *engine) run(j job) (res sandbox.Result, ph phases) {
	start := time.Now()
	cpu0 := processCPU()
	last := cpu0 // the latest reading
	lap := func() time.Duration {
		t := last
		last = processCPU()
		return last - t
	}
	res.Requests = []sandbox.Request{}
	defer func() {
		if p := recover(); p != nil {
			res.Status, res.Reason = sandbox.StatusCrash, fmt.Sprintf("harness panic: %v", p)
			last = processCPU()
		}
		res.Duration = time.Since(start)
		ph.cpuEnd, ph.cpuTotal = last, last-cpu0
	}()
	dialect := dialectOf(j.Lang)
	// Plain JavaScript the engine parses as it is (a script, CommonJS) needs no
	// transform: esbuild, a millisecond of CPU, runs for modules, JSX, TypeScript
	// and syntax the engine lacks, and its verdict is the syntax check.
	prg, body, err := (*ast.Program)(nil), []ast.Statement(nil), error(nil)
	direct := false
	if dialect == lang.DialectJS {
		prg, body, err = parseModule(wrap(j.Code))
		direct = err == nil
	}
	if !direct {
		js, serr, unsupported := transform(dialect, j.Code)
		ph.transform = lap()
		if unsupported != "" {
			res.Facts = sandbox.Facts{Syntax: true, Error: "engine: " + unsupported + " is not supported"}
			res.Status, res.Reason = sandbox.StatusError, "engine: "+unsupported+" is not supported"
			return res, ph
		}
		if serr != "" {
			res.Facts = sandbox.Facts{Syntax: false, Error: serr}
			res.Status, res.Reason = sandbox.StatusError, "syntax"
			return res, ph
		}
		prg, body, err = parseModule(wrap(js))
	} else {
		ph.transform = lap()
	}
	if err != nil {
		// esbuild took it but the engine cannot parse its output: a feature goja lacks
		ph.parse = lap()
		res.Facts = sandbox.Facts{Syntax: true, Error: "engine: " + firstLine(err.Error())}
		res.Status, res.Reason = sandbox.StatusError, "engine cannot parse: "+firstLine(err.Error())
		return res, ph
	}
	an := analyze(body, e.builtins, e.lazy)
	if !strings.Contains(j.Code, "catch") {
		// a try esbuild wrote lowering for-await or an async generator is not the code's
		an.facts.HasTry = false
	}
	res.Facts = an.facts
	compiled, err := goja.CompileAST(prg, false)
	ph.parse = lap()
	if err != nil {
		res.Status, res.Reason = sandbox.StatusError, "engine cannot compile: "+firstLine(err.Error())
		return res, ph
	}

	vm := goja.New()
	h := &host{res: &res}
	api, err := e.setup(vm, h)
	if err != nil {
		res.Status, res.Reason = sandbox.StatusCrash, "harness: "+err.Error()
		return res, ph
	}
	ph.runtime = lap()

	ph.cpuSetup = last - cpu0
	e.setCurrent(vm)
	timeout := time.Duration(j.TimeoutMS) * time.Millisecond
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	timer := time.AfterFunc(timeout, func() { vm.Interrupt(errTimeout) })
	d := &driver{vm: vm, api: api, h: h}
	stop := d.drive(compiled, an, j.Function)
	timer.Stop()
	e.setCurrent(nil)
	vm.ClearInterrupt()
	ph.cpuCode = lap()
	ph.code = ph.cpuCode

	res.Stderr = h.console.String()
	if h.dropped > 0 {
		res.Stderr += fmt.Sprintf("\n[sandbox: %d more bytes of console output dropped]", h.dropped)
	}
	res.Status, res.Reason = classify(stop, d.errs)
	res.Handed = d.handedSent
	if res.Status == sandbox.StatusOK && d.handedSent {
		// the fallback is named: the request came from a function the code handed
		// to a stub, not from the target itself
		res.Reason = "sent by a function the code handed to a framework stub (a handler, effect or lifecycle hook)"
		if len(d.missing) > 0 {
			res.Reason += "; not defined: " + strings.Join(d.missing, ", ")
		}
	}
	return res, ph
}

// classify says how a run ended: by what interrupted it, else by its errors.
func classify(stop any, errs []string) (sandbox.Status, string) {
	switch s := stop.(type) {
	case error:
		switch s {
		case errTimeout:
			return sandbox.StatusTimeout, "wall-clock timeout"
		case errMemory:
			return sandbox.StatusOOM, "memory limit"
		}
	case exitSignal:
		return sandbox.StatusError, fmt.Sprintf("process.exit(%d)", s.code)
	}
	if len(errs) > 0 {
		return sandbox.StatusError, errs[0]
	}
	return sandbox.StatusOK, ""
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 300 {
		s = s[:300]
	}
	return s
}

// driver runs the module and calls its targets, driving promises and timers.
type driver struct {
	vm     *goja.Runtime
	api    harnessAPI
	h      *host
	errs   []string
	fired  int // timer callbacks so far
	capped bool
	// missing are the named targets the module does not define: an error only
	// when nothing else (a function handed to a framework) sends a request.
	missing []string
	// handedSent is set when the requests came from a function the code handed to
	// a stub, called as its framework would, rather than from a target.
	handedSent bool
}

// errNotDefined is the error of a named target the module does not define.
var errNotDefined = errors.New("not defined")

// stopped tells an interrupt (what it carried) from an ordinary exception.
func stopped(err error) (any, bool) {
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		return ie.Value(), true
	}
	return nil, false
}

func (d *driver) note(where string, err error) {
	if len(d.errs) < 20 {
		d.errs = append(d.errs, where+": "+exceptionText(err))
	}
}

func exceptionText(err error) string {
	var so *goja.StackOverflowError
	if errors.As(err, &so) {
		return "RangeError: maximum call stack size exceeded"
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		if v := ex.Value(); v != nil {
			if o, ok := v.(*goja.Object); ok {
				name, msg := o.Get("name"), o.Get("message")
				if isString(name) && isString(msg) && name.String() != "" {
					return firstLine(name.String() + ": " + msg.String())
				}
			}
			// not an Error: never its own toString, which is the code's
			return firstLine("thrown: " + safeString(v))
		}
	}
	return firstLine(err.Error())
}

func isString(v goja.Value) bool {
	if v == nil {
		return false
	}
	_, ok := v.Export().(string)
	return ok
}

// safeString is v as a string, without calling the code's toString.
func safeString(v goja.Value) string {
	if o, ok := v.(*goja.Object); ok {
		return "[" + o.ClassName() + "]"
	}
	return v.String()
}

// drive runs the module, then the targets; it returns what interrupted the run
// (nil when nothing did).
func (d *driver) drive(compiled *goja.Program, an analysis, function string) (stop any) {
	defer func() {
		if p := recover(); p != nil {
			// goja raises a stack overflow in Go as a panic in some paths
			if err, ok := p.(error); ok {
				if v, ok := stopped(err); ok {
					stop = v
					return
				}
			}
			panic(p)
		}
	}()
	if len(an.lazy) > 0 {
		if _, err := d.api.call("installGlobals", d.vm.ToValue(anys(an.lazy))); err != nil {
			if v, ok := stopped(err); ok {
				return v
			}
		}
	}
	if len(an.globals) > 0 {
		names := make([]any, len(an.globals))
		for i, n := range an.globals {
			names[i] = n
		}
		if _, err := d.api.call("bindGlobals", d.vm.ToValue(names)); err != nil {
			if v, ok := stopped(err); ok {
				return v
			}
		}
	}
	if an.pageQuery != "" {
		if _, err := d.api.call("setPageQuery", d.vm.ToValue(an.pageQuery)); err != nil {
			if v, ok := stopped(err); ok {
				return v
			}
		}
	}
	if len(an.elements) > 0 {
		if _, err := d.api.call("bindElements", d.vm.ToValue(anys(an.elements))); err != nil {
			if v, ok := stopped(err); ok {
				return v
			}
		}
	}

	if len(an.ctors) > 0 {
		ctors := map[string]json.RawMessage{}
		for c, ps := range an.ctors {
			ctors[c] = json.RawMessage(dummyArgs(ps, modeDefaults))
		}
		b, _ := json.Marshal(ctors)
		if _, err := d.api.call("setCtorArgs", d.vm.ToValue(string(b))); err != nil {
			if v, ok := stopped(err); ok {
				return v
			}
		}
	}

	modFn, err := d.vm.RunProgram(compiled)
	if err != nil {
		if v, ok := stopped(err); ok {
			return v
		}
		d.note("module", err)
		return nil
	}
	f, _ := goja.AssertFunction(modFn)
	mod := d.api.get("module").ToObject(d.vm)
	_, err = f(goja.Undefined(), mod.Get("exports"), d.api.get("require"), mod,
		d.vm.ToValue("/sandbox/main.js"), d.vm.ToValue("/sandbox"), d.api.get("setLookup"))
	if err != nil {
		if v, ok := stopped(err); ok {
			return v
		}
		d.note("module", err)
	}
	// a module that awaited at its top level runs as a promise
	var rejected error
	if v := d.settle(func(e error) { rejected = e }, mod.Get(mainPromise)); v != nil {
		return v
	}
	if rejected != nil {
		d.note("module", rejected)
	}
	if v := d.settle(nil); v != nil {
		return v
	}

	for _, t := range targets(an.defs, an.exported, function) {
		if v := d.callTarget(t); v != nil {
			return v
		}
	}
	if len(d.h.res.Requests) == 0 {
		if v := d.callHanded(); v != nil {
			return v
		}
	}
	if len(d.h.res.Requests) == 0 {
		for _, name := range d.missing {
			d.note(name, errNotDefined)
		}
	}
	if d.capped {
		d.errs = append(d.errs, fmt.Sprintf("timers: stopped after %d callbacks (a timer that never ends)", maxTimerCalls))
	}
	return nil
}

// targets are the definitions to call: those named function (f, or X.f), else
// every definition (at most maxTargets). A named function the analysis did not
// find is still tried: it may be exported under that name.
func targets(defs []def, exported map[string]string, function string) []def {
	want := strings.TrimSpace(function)
	if local, ok := exported[want]; ok {
		want = local
	}
	if want == "" {
		if len(defs) > maxTargets {
			return defs[:maxTargets]
		}
		return defs
	}
	var out []def
	for _, d := range defs {
		if d.Name == want || strings.HasSuffix(d.Name, "."+want) {
			out = append(out, d)
		}
	}
	if len(out) == 0 {
		out = append(out, def{Name: want})
	}
	return out
}

// callHanded calls the functions the code handed to stubs (route handlers,
// effects, listeners), with stubs for arguments, until one sends a request; their
// errors are not the code's (the call is a guess at what a framework would do).
func (d *driver) callHanded() any {
	for i := 0; ; i++ {
		n, err := d.api.call("handed")
		if err != nil || i >= int(n.ToInteger()) {
			if v, ok := stopped(err); ok {
				return v
			}
			return nil
		}
		r, err := d.api.call("callHanded", d.vm.ToValue(i))
		if err != nil {
			if v, ok := stopped(err); ok {
				return v
			}
			continue
		}
		if v := d.settle(nil, r.ToObject(d.vm).Get("value")); v != nil {
			return v
		}
		if len(d.h.res.Requests) > 0 {
			d.handedSent = true
			return nil
		}
	}
}

// callTarget calls one definition with each dummy mode in turn until a call sends
// a request: keeping the defaults, dummies for every parameter, stubs for every
// parameter. It returns what interrupted the run, if something did.
func (d *driver) callTarget(t def) any {
	var first error
	for mode := 0; mode < numModes; mode++ {
		before := len(d.h.res.Requests)
		r, err := d.api.call("drive", d.vm.ToValue(t.Name), d.vm.ToValue(dummyArgs(t.Params, mode)))
		if err != nil {
			if v, ok := stopped(err); ok {
				return v
			}
		} else {
			ro := r.ToObject(d.vm)
			if m := ro.Get("missing"); m != nil && m.ToBoolean() {
				if mode == 0 && t.Name != "" {
					d.missing = append(d.missing, t.Name)
				}
				break
			}
			var rejected error
			if v := d.settle(func(e error) { rejected = e }, ro.Get("value")); v != nil {
				return v
			}
			err = rejected
		}
		if len(d.h.res.Requests) > before {
			return nil
		}
		if err != nil && first == nil {
			first = err
		}
	}
	if first != nil {
		d.note(t.Name, first)
	}
	return nil
}

// settle drives the job queue and the timers until the value (a promise, if it is
// one) settles, no timer is left, or the timer budget is spent; a rejection goes
// to onReject. With no value it fires the pending timers. It returns what
// interrupted the run, if something did.
func (d *driver) settle(onReject func(error), vals ...goja.Value) any {
	var p *goja.Promise
	if len(vals) > 0 && vals[0] != nil {
		if o, ok := vals[0].(*goja.Object); ok {
			p, _ = o.Export().(*goja.Promise)
		}
	}
	for {
		if p != nil && p.State() != goja.PromiseStatePending {
			break
		}
		if d.fired >= maxTimerCalls {
			d.capped = true
			break
		}
		more, err := d.api.call("tick")
		if err != nil {
			if v, ok := stopped(err); ok {
				return v
			}
			// an exception in a timer callback: uncaught, as Node would report it
			d.note("timer", err)
		} else if !more.ToBoolean() {
			break
		}
		d.fired++
	}
	if p != nil && p.State() == goja.PromiseStateRejected && onReject != nil {
		if r := p.Result(); r != nil {
			onReject(rejection(r))
		}
	}
	return nil
}

// rejection is a promise's rejection reason as an error.
type rejectionError struct{ text string }

func (r rejectionError) Error() string { return r.text }

func rejection(v goja.Value) error {
	if o, ok := v.(*goja.Object); ok {
		name, msg := o.Get("name"), o.Get("message")
		if isString(name) && isString(msg) {
			return rejectionError{firstLine(name.String() + ": " + msg.String())}
		}
	}
	return rejectionError{firstLine("rejected: " + safeString(v))}
}

// host is the Go side the harness calls: it records requests, keeps the console
// output, and takes process.exit.
type host struct {
	vm      *goja.Runtime
	res     *sandbox.Result
	console strings.Builder
	dropped int
}

func (h *host) object(vm *goja.Runtime) *goja.Object {
	o := vm.NewObject()
	o.Set("record", h.record)
	o.Set("console", h.log)
	o.Set("dropped", func(n int) { h.dropped += n })
	o.Set("exit", func(code int) { vm.Interrupt(exitSignal{code}) })
	o.Set("stubbed", func(name string) {
		if h.res != nil && len(h.res.Stubbed) < maxStubbed {
			h.res.Stubbed = append(h.res.Stubbed, name)
		}
	})
	o.Set("undefined", func(name string) {
		if h.res != nil && len(h.res.Undefined) < maxStubbed {
			h.res.Undefined = append(h.res.Undefined, name)
		}
	})
	o.Set("field", fieldValue)
	o.Set("symIterator", goja.SymIterator)
	o.Set("symToPrimitive", goja.SymToPrimitive)
	o.Set("b64enc", func(s string) string { return base64.StdEncoding.EncodeToString(latin1(s)) })
	o.Set("b64dec", func(s string) string {
		b, err := base64.StdEncoding.DecodeString(strings.TrimRight(s, "="))
		if err != nil {
			b, _ = base64.RawStdEncoding.DecodeString(strings.TrimRight(s, "="))
		}
		return string(b)
	})
	return o
}

// latin1 is s as bytes the way btoa reads a string (one byte per code unit).
func latin1(s string) []byte {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		out = append(out, byte(r))
	}
	return out
}

// log keeps a line of console output; false once the console keeps no more.
func (h *host) log(level, text string) bool {
	if h.console.Len() >= maxConsole {
		h.dropped += len(text) + 1
		return false
	}
	room := maxConsole - h.console.Len()
	line := text + "\n"
	if len(line) > room {
		h.dropped += len(line) - room
		line = line[:room]
	}
	h.console.WriteString(line)
	return h.console.Len() < maxConsole
}

func (h *host) record(lib, method, url string, params, headers, body, data goja.Value) {
	if h.res == nil {
		return
	}
	if len(h.res.Requests) >= maxRequests {
		h.vm.Interrupt(errEnough)
		return
	}
	q := sandbox.Request{Lib: lib, Method: method, URL: url}
	if s, ok := stringValue(params); ok {
		q.ParamsRaw = s
	} else {
		q.Params = keysJSON(params)
	}
	q.Headers = redactHeaders(headers)
	q.JSON = bodyJSON(body)
	q.Data = bodyJSON(data)
	h.res.Requests = append(h.res.Requests, q)
}

func stringValue(v goja.Value) (string, bool) {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return "", false
	}
	if s, ok := v.Export().(string); ok {
		return s, true
	}
	return "", false
}

// keysJSON is a list of keys as JSON (nil when v holds none).
func keysJSON(v goja.Value) json.RawMessage {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return nil
	}
	list, ok := v.Export().([]any)
	if !ok {
		return nil
	}
	keys := make([]string, 0, len(list))
	for _, k := range list {
		keys = append(keys, fmt.Sprint(k))
	}
	b, _ := json.Marshal(keys)
	return b
}

// bodyJSON is a body as recorded: its keys, or the string (cut short).
func bodyJSON(v goja.Value) json.RawMessage {
	if s, ok := stringValue(v); ok {
		if len(s) > maxBodyString {
			s = s[:maxBodyString]
		}
		b, _ := json.Marshal(strings.ToValidUTF8(s, "?"))
		return b
	}
	return keysJSON(v)
}

// secretish are the parts of a header name whose value is redacted.
var secretish = []string{"key", "token", "auth", "secret", "password", "cookie"}

// redactHeaders is a header object as strings, values of secret-looking names
// redacted (a name with "host" in it is kept: X-RapidAPI-Host names the API).
func redactHeaders(v goja.Value) map[string]string {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return nil
	}
	m, ok := v.Export().(map[string]any)
	if !ok || len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, val := range m {
		kl := strings.ToLower(k)
		s := fmt.Sprint(val)
		if len(s) > 200 {
			s = s[:200]
		}
		switch {
		case strings.Contains(kl, "host"):
			out[k] = s
		case containsAny(kl, secretish):
			out[k] = "<redacted>"
		default:
			out[k] = s
		}
	}
	return out
}

func containsAny(s string, parts []string) bool {
	for _, p := range parts {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
