// Package split assigns samples to the train, validation and test splits at the API
// level: APIs of one family (shared provider or similar names) stay in one split, so
// no test API was seen in training, and the ratios are honoured over samples.
package split
