package links

import "github.com/langcrawl/langcrawl/internal/plainurl"

// fastAbsolute resolves a plain absolute reference without the WHATWG
// parser (plainurl.Absolute); ok is false when resolve must decide.
func fastAbsolute(ref string) (abs string, ok bool) { return plainurl.Absolute(ref) }
