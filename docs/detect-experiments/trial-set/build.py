#!/usr/bin/env python3
"""Build the held-out web-page evaluation set for langcrawl's detector.

Reads unpacked Debian packages under /tmp/dtrial/x/<package>/ (see build.sh),
extracts running text, filters out English fallbacks and wrong-script text,
and writes small HTML pages to /tmp/dtrial/set/ plus set/manifest.tsv.
Deterministic (seeded).
"""
import unicodedata, glob, gzip, html, json, os, random, re, sys, zipfile
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

X = "/tmp/dtrial/x"
OUT = "/tmp/dtrial/set"
random.seed(20261127)

# ---------------------------------------------------------------- extractors
class BlockParser(HTMLParser):
    """Collects the text of <p> elements and <div class="para"> (publican)."""
    def __init__(self, pclass=None):
        super().__init__(convert_charrefs=True)
        self.pclass = pclass
        self.depth = 0
        self.stack = []
        self.cur = []
        self.blocks = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("pre", "script", "style", "table"):
            self.skip += 1
        if self.depth:
            if tag in ("p", "div"):
                self.depth += 1
            if tag == "br":
                self.cur.append(" ")
            return
        cls = a.get("class", "") or ""
        if (tag == "p" and (self.pclass is None or cls in self.pclass)) or (tag == "div" and cls == "para"):
            self.depth = 1
            self.cur = []

    def handle_endtag(self, tag):
        if tag in ("pre", "script", "style", "table") and self.skip:
            self.skip -= 1
        if self.depth and tag in ("p", "div"):
            self.depth -= 1
            if self.depth == 0:
                self.blocks.append("".join(self.cur))

    def handle_data(self, d):
        if self.depth and not self.skip:
            self.cur.append(d)


def html_blocks(path, pclass=None):
    p = BlockParser(pclass)
    try:
        p.feed(open(path, encoding="utf-8", errors="replace").read())
    except Exception:
        return []
    return p.blocks


def mallard_blocks(path):
    try:
        root = ET.parse(path).getroot()
    except Exception:
        return []
    out = []
    for el in root.iter():
        tag = el.tag.split("}")[-1]
        if tag == "p":
            t = " ".join(el.itertext())
            out.append(re.sub(r"\s+([,.;:!?)])", r"\1", re.sub(r"\(\s+", "(", t)))
    return out


ROFF_ESC = [(r"\\f\[[A-Z]*\]", ""), (r"\\f\(..", ""), (r"\\f[BIRPC]", ""), (r"\\\(em", "—"), (r"\\\(en", "–"),
            (r"\\\(aq", "'"), (r"\\\(dq", '"'), (r"\\\(lq", "“"), (r"\\\(rq", "”"), (r"\\\(bu", "•"),
            (r"\\-", "-"), (r"\\&", ""), (r"\\e", "\\\\"), (r"\\ ", " "), (r"\\\*\(..", ""), (r"\\\*.", ""),
            (r"\\s[-+]?\d", ""), (r"\\\(.." , ""), (r"\\.", "")]


def roff_blocks(path):
    try:
        txt = gzip.open(path, "rt", encoding="utf-8", errors="replace").read()
    except Exception:
        return []
    out, cur, section = [], [], ""
    for line in txt.split("\n"):
        if line.startswith(".") or line.startswith("'"):
            m = re.match(r"[.'](\S+)\s*(.*)", line)
            if not m:
                continue
            mac, arg = m.group(1), m.group(2)
            if mac in ("B", "I", "BR", "IR", "RB", "BI", "IB", "RI", "SM", "SB"):
                cur.append(re.sub(r'"', "", arg))
                continue
            if cur:
                out.append((section, " ".join(cur)))
                cur = []
            if mac in ("SH", "SS"):
                section = arg.upper()
            continue
        cur.append(line)
    if cur:
        out.append((section, " ".join(cur)))
    res = []
    for section, b in out:
        if "SYNOP" in section or "ÜBERSICHT" in section:
            continue
        for a, r in ROFF_ESC:
            b = re.sub(a, r, b)
        res.append(b)
    return res


def moz_strings(xpi, brand):
    """Values of .ftl messages/attributes and .properties entries, grouped per file."""
    z = zipfile.ZipFile(xpi)
    files = {}
    for n in sorted(z.namelist()):
        if not (n.endswith(".ftl") or n.endswith(".properties")):
            continue
        try:
            t = z.read(n).decode("utf-8")
        except Exception:
            continue
        vals = []
        if n.endswith(".ftl"):
            cur = None
            for line in t.split("\n"):
                if line.startswith("#") or not line.strip():
                    if cur is not None:
                        vals.append(cur); cur = None
                    continue
                m = re.match(r"^\s*(-?[A-Za-z0-9_.-]+)\s*=\s?(.*)$", line)
                if m and (not line.startswith(" ") or line.strip().startswith(".")):
                    if cur is not None:
                        vals.append(cur)
                    cur = m.group(2)
                elif line.startswith(" ") and cur is not None:
                    cur += " " + line.strip()
            if cur is not None:
                vals.append(cur)
        else:
            for line in t.split("\n"):
                if line.startswith("#") or "=" not in line:
                    continue
                v = line.split("=", 1)[1].strip()
                v = v.replace("\\n", " ")
                v = re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), v)
                vals.append(v)
        clean = []
        for v in vals:
            if "->" in v or "[" in v and "]" in v and "*[" in v:
                continue
            v = re.sub(r"\{\s*-brand-[a-z-]*name\s*\}", brand, v)
            v = re.sub(r"\{\s*-vendor-short-name\s*\}", "Mozilla", v)
            v = re.sub(r"\{[^{}]*\}", "", v)
            v = re.sub(r"<[^>]+>", "", v)
            v = re.sub(r"%(\d\$)?[SsdD@]|#\d|\$[A-Za-z_]+", "", v)
            v = v.strip().strip('"').strip()
            clean.append(v)
        files[n] = clean
    return files

# ---------------------------------------------------------------- filters
CYR = {"ru", "uk", "be", "bg", "sr"}
DEVA = {"hi", "ne", "mr"}
EN_STOP = set("the and of is you your this with that are from which will have has not be can when if".split())


def script_share(text, lang, latin_sr=False):
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return 0.0
    if lang == "th":
        ok = sum("\u0e00" <= c <= "\u0e7f" for c in letters)
    elif lang in DEVA:
        ok = sum("\u0900" <= c <= "\u097f" for c in letters)
    elif lang in CYR and not latin_sr:
        ok = sum("\u0400" <= c <= "\u04ff" for c in letters)
    else:
        ok = sum(c < "\u0250" for c in letters)
    return ok / len(letters)


def words(t):
    return re.findall(r"\w+", t.lower())


EN_VOCAB = set()


def is_english(t):
    w = words(t)
    if not w:
        return True
    if sum(x in EN_STOP for x in w) / len(w) >= 0.05:
        return True
    w2 = [x for x in w if len(x) >= 2 and not x.isdigit()]
    return bool(w2) and sum(x in EN_VOCAB for x in w2) / len(w2) >= 0.5


def norm(t):
    t = html.unescape(t)
    t = re.sub(r"\s+", " ", t).strip()
    return t


def good_block(t, lang, en_set, latin_sr=False, minlen=40):
    if len(t) < minlen:
        return False
    if lang != "en" and t.lower() in en_set:
        return False
    letters = sum(c.isalpha() or unicodedata.category(c).startswith("M") for c in t)
    if letters / max(1, len(t)) < 0.7:
        return False
    if re.search(r"https?://|www\.|[/\\]\w+[/\\]|\w+\(|\$\(|[{}<>=]|[a-z][A-Z]|\w\.\w", t):
        return False
    if script_share(t, lang, latin_sr) < 0.92:
        return False
    if lang != "en" and is_english(t):
        return False
    return True

# ---------------------------------------------------------------- sources
# (lang, variant, package, kind, glob)
S = []
def add(lang, pkg, kind, pattern, variant=""):
    S.append((lang, variant, pkg, kind, pattern))

LO = {"id": "id", "da": "da", "cs": "cs", "sk": "sk", "sl": "sl", "es": "es", "ca": "ca", "gl": "gl", "pt": "pt", "hi": "hi", "ru": "ru", "en": "en-US"}
for l, d in LO.items():
    pkg = "libreoffice-help-" + ("en-us" if l == "en" else l)
    add(l, pkg, "lohelp", f"{X}/{pkg}/usr/share/libreoffice/help/{d}/text/**/*.html")
GNOME = {"id": "id", "da": "da", "hr": "hr", "sr": "sr", "sl": "sl", "cs": "cs", "es": "es", "ca": "ca", "gl": "gl",
         "pt": "pt", "hi": "hi", "mr": "mr", "ru": "ru", "uk": "uk", "en": "C"}
for l, d in GNOME.items():
    add(l, "gnome-user-docs", "mallard", f"{X}/gnome-user-docs/usr/share/help/{d}/*/*.page")
add("sr", "gnome-user-docs", "mallard", f"{X}/gnome-user-docs/usr/share/help/sr@latin/*/*.page", variant="Latn")
HB = {"id": "id-ID", "nb": "nb-NO", "da": "da-DK", "hr": "hr-HR", "cs": "cs-CZ", "es": "es-ES", "ca": "ca-ES", "pt": "pt-BR", "ru": "ru-RU"}
for l, d in HB.items():
    add(l, "debian-handbook", "html", f"{X}/debian-handbook/usr/share/doc/debian-handbook/html/{d}/*.html")
add("id", "debian-reference-id", "html", f"{X}/debian-reference-id/usr/share/debian-reference/*.id.html")
for l in ["id", "nb", "da", "sr", "uk", "cs", "es"]:
    add(l, "manpages-" + l, "roff", f"{X}/manpages-{l}/usr/share/man/{l}/man*/*.gz")
FF = {"ms": "ms", "id": "id", "nb": "nb-no", "nn": "nn-no", "da": "da", "hr": "hr", "sr": "sr", "sl": "sl", "cs": "cs",
      "sk": "sk", "es": "es-es", "ca": "ca", "gl": "gl", "pt": "pt-pt", "hi": "hi-in", "ne": "ne-np", "mr": "mr",
      "ru": "ru", "uk": "uk", "be": "be", "bg": "bg", "th": "th"}
for l, d in FF.items():
    add(l, "firefox-esr-l10n-" + d, "moz", f"{X}/firefox-esr-l10n-{d}/usr/lib/firefox-esr/browser/extensions/*.xpi")
TB = {"sk": "sk", "ms": "ms", "nn": "nn-no", "nb": "nb-no", "be": "be", "bg": "bg", "th": "th", "hr": "hr", "id": "id", "da": "da", "sr": "sr", "sl": "sl"}
for l, d in TB.items():
    add(l, "thunderbird-l10n-" + d, "moz", f"{X}/thunderbird-l10n-{d}/usr/lib/thunderbird/extensions/*.xpi")


def doc_blocks(kind, path, pkg):
    if kind == "lohelp":
        return html_blocks(path, pclass={"paragraph", "listitem", "note", "tip", "warning"})
    if kind == "html":
        return html_blocks(path)
    if kind == "mallard":
        return mallard_blocks(path)
    if kind == "roff":
        return roff_blocks(path)
    raise ValueError(kind)


def split_long(t, maxlen=1500):
    if len(t) <= maxlen:
        return t
    cut = t[:maxlen]
    i = max(cut.rfind(". "), cut.rfind("। "), cut.rfind("? "), cut.rfind("! "))
    if i > 300:
        return cut[: i + 1]
    return cut[: cut.rfind(" ")] if " " in cut else cut


def assemble(blocks, minlen=300, maxlen=1500):
    """Joins consecutive blocks of one document into paragraphs of 300-1500 chars."""
    out, cur = [], ""
    for b in blocks:
        cur = (cur + " " + b).strip() if cur else b
        if len(cur) >= minlen:
            out.append(split_long(cur, maxlen))
            cur = ""
    return out


def english_set():
    en = set()
    cnt = {}
    refs = [(kind, pat, pkg) for l, v, pkg, kind, pat in S if l == "en"]
    refs.append(("html", f"{X}/debian-handbook/usr/share/doc/debian-handbook/html/en-US/*.html", "debian-handbook"))
    for kind, pat, pkg in refs:
        for f in glob.glob(pat, recursive=True):
            for b in doc_blocks(kind, f, pkg):
                b = norm(b)
                en.add(b.lower())
                for x in words(b):
                    cnt[x] = cnt.get(x, 0) + 1
    EN_VOCAB.update(x for x, n in cnt.items() if n >= 3)
    print(f"English reference: {len(en)} blocks, vocabulary {len(EN_VOCAB)} words", file=sys.stderr)
    return en


def collect():
    en_set = english_set()
    pools = {}   # (lang, variant) -> {pkg: [paragraphs]}
    blocks_for_short = {}
    for l, v, pkg, kind, pat in S:
        files = sorted(glob.glob(pat, recursive=True))
        paras = []
        shorts = []
        seen = set()
        if kind == "moz":
            brand = "Thunderbird" if pkg.startswith("thunderbird") else "Firefox"
            for xpi in files:
                for fn, vals in moz_strings(xpi, brand).items():
                    bl = []
                    for val in vals:
                        t = norm(val)
                        if t in seen or not good_block(t, l, en_set, v == "Latn", minlen=25):
                            continue
                        seen.add(t)
                        if len(t) >= 50:
                            shorts.append(t)
                        bl.append(t if t[-1] in ".!?।" else t + ".")
                    paras += assemble(bl)
        else:
            for f in files:
                bl = []
                for b in doc_blocks(kind, f, pkg):
                    t = norm(b)
                    if t in seen or not good_block(t, l, en_set, v == "Latn", minlen=60):
                        continue
                    seen.add(t)
                    shorts.append(t)
                    bl.append(t)
                paras += assemble(bl)
        if paras or shorts:
            pools.setdefault((l, v), {})[pkg] = (paras, shorts)
        print(f"{l:3} {v:4} {pkg:28} files={len(files):5} paragraphs={len(paras):5} short-src={len(shorts)}", file=sys.stderr)
    return pools

# ---------------------------------------------------------------- pages
NAVS = [
    ("Home | About | Contact | News", "© 2024 Example Media Ltd. All rights reserved. Privacy Policy | Terms of Use | Sitemap",
     "We use cookies to improve your experience on our website. By continuing to browse, you agree to our use of cookies. Accept | Learn more"),
    ("Home · News · Events · About us · Contact", "Copyright © 2023 Northwind Community Portal. All rights reserved. Follow us on Facebook and Twitter.",
     "This website uses cookies to ensure you get the best experience. Read our Cookie Policy. Got it!"),
    ("Home | Blog | Products | Support | Contact", "© 2025 Acme Software Inc. | Privacy | Terms and Conditions | Back to top",
     "Cookies help us deliver our services. By using our services, you agree to our use of cookies. OK"),
]


def page_plain(title, paras):
    body = "\n".join(f"<p>{html.escape(p)}</p>" for p in paras)
    return f"<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>{html.escape(title)}</title>\n</head>\n<body>\n{body}\n</body>\n</html>\n"


def page_boiler(para, k):
    nav, foot, cookie = NAVS[k % len(NAVS)]
    links = " ".join(f'<a href="/{w.lower().replace(" ", "-")}">{html.escape(w)}</a>' for w in re.split(r"\s*[|·]\s*", nav))
    return (f"<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>News - Example Site</title>\n</head>\n<body>\n"
            f"<header><nav>{links}</nav></header>\n<main>\n<article>\n<p>{html.escape(para)}</p>\n</article>\n</main>\n"
            f"<div class=\"cookie-notice\">{html.escape(cookie)}</div>\n<footer><p>{html.escape(foot)}</p></footer>\n</body>\n</html>\n")


def short_text(t):
    n = random.randint(50, 120)
    if len(t) <= n:
        return t if len(t) >= 50 else None
    cut = t[:n]
    if " " in cut[40:]:
        cut = cut[: cut.rfind(" ")]
    return cut if len(cut) >= 50 else None


def title_of(p):
    w = p.split()
    return " ".join(w[:5]).rstrip(".,:;")


def build():
    pools = collect()
    os.makedirs(OUT, exist_ok=True)
    for sub in ("para", "boiler", "short"):
        os.makedirs(f"{OUT}/{sub}", exist_ok=True)
        for f in glob.glob(f"{OUT}/{sub}/*.html"):
            os.remove(f)
    man = ["file\tlang\tvariant\tscenario\tsource\tchars"]
    for (l, v), bypkg in sorted(pools.items()):
        tag = l + ("-" + v if v else "")
        # paragraph pages: round robin over sources, 1-3 paragraphs each from one source
        queues = {}
        for pkg, (paras, shorts) in sorted(bypkg.items()):
            ps = paras[:]
            random.shuffle(ps)
            if ps:
                queues[pkg] = ps
        pages = []
        target = 100
        while len(pages) < target and queues:
            for pkg in sorted(list(queues)):
                q = queues[pkg]
                k = random.choice([1, 1, 2, 2, 3])
                take, queues[pkg] = q[:k], q[k:]
                if take:
                    pages.append((pkg, take))
                if not queues[pkg]:
                    del queues[pkg]
                if len(pages) >= target:
                    break
        for i, (pkg, take) in enumerate(pages):
            fn = f"para/{tag}-{i:03d}.html"
            open(f"{OUT}/{fn}", "w", encoding="utf-8").write(page_plain(title_of(take[0]), take))
            man.append(f"{fn}\t{l}\t{v}\tpara\t{pkg}\t{sum(len(x) for x in take)}")
            if l != "en":
                fn = f"boiler/{tag}-{i:03d}.html"
                open(f"{OUT}/{fn}", "w", encoding="utf-8").write(page_boiler(take[0], i))
                man.append(f"{fn}\t{l}\t{v}\tboiler\t{pkg}\t{len(take[0])}")
        # short pages
        sq = {}
        for pkg, (paras, shorts) in sorted(bypkg.items()):
            s = shorts[:]
            random.shuffle(s)
            if s:
                sq[pkg] = s
        n = 0
        while n < 60 and sq:
            for pkg in sorted(list(sq)):
                t = None
                while sq[pkg] and t is None:
                    t = short_text(sq[pkg].pop())
                if not sq[pkg]:
                    del sq[pkg]
                if t:
                    fn = f"short/{tag}-{n:03d}.html"
                    open(f"{OUT}/{fn}", "w", encoding="utf-8").write(page_plain("", [t]))
                    man.append(f"{fn}\t{l}\t{v}\tshort\t{pkg}\t{len(t)}")
                    n += 1
                if n >= 60:
                    break
        print(f"{tag:8} para={len(pages)} short={n}", file=sys.stderr)
    open(f"{OUT}/manifest.tsv", "w").write("\n".join(man) + "\n")


if __name__ == "__main__":
    build()
