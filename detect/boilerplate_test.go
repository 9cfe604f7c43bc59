package detect

import (
	"fmt"
	"strings"
)

// boilerplateTemplates are page templates of the kinds the independent
// set found English outvoting a native paragraph with: navigation, a
// header, a cookie notice, a language menu, sharing buttons, a footer,
// images with English alt and title text, code, and markup-heavy
// wrappers. %s is where the paragraph goes.
var boilerplateTemplates = []string{
	// A blog: header, menu, cookie notice, sharing, comments, footer.
	`<!DOCTYPE html><html><head><meta charset="%[3]s"><title>Blog post</title>
<link rel="stylesheet" href="/style.css"><script type="application/ld+json">{"@type":"BlogPosting","headline":"Read more about our latest news and updates"}</script></head>
<body><header class="site-header"><div class="logo"><a href="/"><img src="/logo.png" alt="Company logo, home page" title="Go to the home page"></a></div>
<div class="top-bar">Welcome to our website! Sign up for our newsletter to get the latest updates.</div></header>
<ul class="nav"><li><a href="/">Home</a></li><li><a href="/about">About us</a></li><li><a href="/blog">Blog</a></li><li><a href="/contact">Contact</a></li></ul>
<div class="cookie-banner">We use cookies to improve your experience on our website. By continuing to browse, you agree to our use of cookies. <button>Accept</button></div>
<main><article><h1 class="entry-title">%[2]s</h1><div class="meta">Posted by admin on March 3, 2021 in Uncategorized</div>
<p>%[1]s</p>
<div class="share">Share this: <a href="#">Facebook</a> <a href="#">Twitter</a> <a href="#">Email</a></div>
<div class="comments"><h3>Leave a Reply</h3><p>Your email address will not be published. Required fields are marked *</p></div></article></main>
<footer><p>Copyright 2021 Example Ltd. All rights reserved. Powered by WordPress | Theme by Example Themes</p></footer></body></html>`,
	// A shop: language menu, breadcrumbs, product images, a widget.
	`<!DOCTYPE html><html lang="en"><head><meta charset="%[3]s"></head><body>
<div class="language-switcher"><a href="?lang=en">English</a> | <a href="?lang=de">Deutsch</a> | <a href="?lang=fr">Fran&ccedil;ais</a> | <a href="?lang=es">Espa&ntilde;ol</a></div>
<div class="breadcrumbs"><a href="/">Home</a> &gt; <a href="/shop">Shop</a> &gt; Product details</div>
<div class="product"><img src="a.jpg" alt="Product photo front view in high resolution" title="Click to enlarge the image"><img src="b.jpg" alt="Product photo side view with the package"></div>
<div class="description"><p>%[1]s</p></div>
<div class="widget">Free shipping on all orders over $50. Secure checkout with PayPal and all major credit cards.</div>
<div id="footer">Terms and conditions. Privacy policy. Shipping and returns. Customer service is available Monday to Friday.</div></body></html>`,
	// Documentation: a code block beside the paragraph, a sidebar.
	`<html><head><meta charset="%[3]s"><style>pre{background:#eee}</style></head><body>
<div class="sidebar"><h4>Table of contents</h4><p>Getting started with the installation and configuration guide</p></div>
<div class="content"><h2>%[2]s</h2><p>%[1]s</p>
<pre><code>function getUserName(user) {
  // return the display name of the user, or the login when none is set
  return user.displayName || user.login;
}</code></pre>
<p>Last updated on January 5, 2020 by the documentation team</p></div></body></html>`,
	// Markup-heavy: deeply nested divs and spans with long attributes.
	`<html><head><meta charset="%[3]s"></head><body><div id="app" data-reactroot="" class="container-fluid main-wrapper"><div class="row"><div class="col-md-8 col-sm-12">
<div class="card shadow-sm"><div class="card-body"><span class="badge badge-primary" title="Featured article of the week">Featured</span>
<div class="text" data-analytics="{&quot;event&quot;:&quot;view&quot;,&quot;label&quot;:&quot;article body&quot;}"><span>%[1]s</span></div>
<a class="btn btn-outline-secondary" href="#" title="Read more about this topic">Read more</a></div></div></div>
<div class="col-md-4"><div class="card"><div class="card-header">Popular posts</div><ul class="list-group"><li class="list-group-item"><a href="#">How to get started with our new platform today</a></li><li class="list-group-item"><a href="#">Ten tips and tricks for better results</a></li></ul></div></div></div></div></body></html>`,
}

// boilerplatePage puts text (the native paragraph) in template k of
// boilerplateTemplates, with the first words of the text as its heading
// and a META naming charset.
func boilerplatePage(text string, k int, charset string) string {
	return fmt.Sprintf(boilerplateTemplates[k%len(boilerplateTemplates)], text, strings.TrimSpace(cutRunes(text, 30)), charset)
}
