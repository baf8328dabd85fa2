// Package redact writes natural-language intents for samples that do not leak the
// ground truth (host, route, method, parameters), and checks them with LeakCheck.
package redact
