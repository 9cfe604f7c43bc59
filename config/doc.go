// Package config turns a crawl profile into one typed, validated Config.
//
// # Sources and precedence
//
// A value is taken from the first of these that sets it:
//
//  1. a command-line flag (only flags the operator actually gave),
//  2. an environment variable LANGCRAWL_<KEY>, with dots in the key
//     written as underscores (LANGCRAWL_WARC_MAX_SIZE for warc.max_size),
//  3. the profile, a YAML file read with viper,
//  4. the built-in default (see Defaults and README.md).
//
// Only this package imports viper and reads the environment; every other
// package receives the values it needs through its own Config struct.
//
// # Errors
//
// Load reports every problem at once, joined with errors.Join, and every
// message names the key it is about, as it is spelled in a profile
// ("warc.max_size: ..."). Unknown keys in a profile are errors too, so a
// typo such as "detph" is not silently ignored.
//
// # The operator contact
//
// Like Heritrix, langcrawl refuses to crawl without a way for a webmaster to
// reach the operator: user_agent must carry a contact URL in the form
// "name/version (+https://example.org/contact)".
package config
