package decontam_test

import "sccg/decontam/secrets"

func newScanner() *secrets.Scanner { return secrets.NewScanner() }
