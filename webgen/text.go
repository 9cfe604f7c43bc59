package webgen

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	"golang.org/x/text/encoding/unicode"
)

// Decl is how a server declares the charset of its pages.
type Decl uint8

// The declaration cases. Tamura et al. 2007 §2.2 trust the META element and
// not the HTTP header; these cases exercise both, and their failures.
const (
	DeclHeaderMeta   Decl = iota // HTTP header and META agree with the bytes
	DeclHeader                   // HTTP header only
	DeclMeta                     // META only
	DeclNone                     // no declaration anywhere
	DeclWrongHeader              // header says iso-8859-1 (or utf-8), META is right
	DeclWrongMeta                // META says iso-8859-1 (or utf-8), e.g. on TIS-620 bytes; no header charset
	DeclRepeatedMeta             // two METAs: the first is right, the second wrong
	DeclNCR                      // non-ASCII text as &#3627;-style references, declared iso-8859-1 (target language only)
	numDecl
)

var declNames = [...]string{"header+meta", "header", "meta", "none", "wrong-header", "wrong-meta", "repeated-meta", "ncr"}

func (d Decl) String() string {
	if int(d) < len(declNames) {
		return declNames[d]
	}
	return "decl(" + strconv.Itoa(int(d)) + ")"
}

// declWeights is the realistic mix used unless Params.CoverDecl is set.
var declWeights = [numDecl]int{40, 15, 20, 10, 5, 4, 3, 3}

func pickDecl(rng *rand.Rand) Decl {
	x := rng.IntN(100)
	for d, w := range declWeights {
		if x < w {
			return Decl(d)
		}
		x -= w
	}
	return DeclHeaderMeta
}

// fixDecl makes a drawn (charset, decl) pair consistent: NCRs are for the
// target language only, and NCR pages are ASCII bytes labelled iso-8859-1.
func fixDecl(lang, target, charset string, d Decl) (string, Decl) {
	if d == DeclNCR {
		if lang != target {
			return charset, DeclHeaderMeta
		}
		return "iso-8859-1", d
	}
	return charset, d
}

// wrongCharset is the label a misdeclaring page uses instead of charset.
func wrongCharset(charset string) string {
	switch charset {
	case "iso-8859-1", "windows-1252", "us-ascii":
		return "utf-8"
	}
	return "iso-8859-1"
}

// charsets per language, with weights: the realistic mix of legacy and
// Unicode encodings.
var langCharsets = map[string][]struct {
	name string
	w    int
}{
	"th": {{"tis-620", 3}, {"windows-874", 2}, {"utf-8", 4}},
	"lo": {{"utf-8", 1}},
	"ja": {{"shift_jis", 3}, {"euc-jp", 2}, {"iso-2022-jp", 1}, {"utf-8", 4}},
	"zh": {{"gbk", 3}, {"gb2312", 1}, {"big5", 2}, {"utf-8", 4}},
	"ko": {{"euc-kr", 4}, {"utf-8", 4}},
	"ru": {{"koi8-r", 2}, {"windows-1251", 3}, {"utf-8", 4}},
	"de": {{"iso-8859-1", 3}, {"windows-1252", 2}, {"utf-8", 5}},
	"fr": {{"iso-8859-1", 3}, {"windows-1252", 2}, {"utf-8", 5}},
	"es": {{"iso-8859-1", 3}, {"windows-1252", 2}, {"utf-8", 5}},
	"vi": {{"utf-8", 1}},
	"id": {{"iso-8859-1", 2}, {"utf-8", 5}},
	"ms": {{"iso-8859-1", 2}, {"utf-8", 5}},
	"en": {{"iso-8859-1", 2}, {"windows-1252", 1}, {"utf-8", 5}},
}

func pickCharset(rng *rand.Rand, lang string) string {
	cs := langCharsets[lang]
	total := 0
	for _, c := range cs {
		total += c.w
	}
	x := rng.IntN(total)
	for _, c := range cs {
		if x < c.w {
			return c.name
		}
		x -= c.w
	}
	return "utf-8"
}

// Encoding returns the x/text encoding for a charset name that the
// generator uses ("tis-620", "shift_jis", ...). TIS-620 is encoded as
// windows-874, its superset: Thai letters have the same bytes in both.
func Encoding(charset string) (encoding.Encoding, error) {
	switch charset {
	case "utf-8":
		return unicode.UTF8, nil
	case "tis-620", "windows-874":
		return charmap.Windows874, nil
	case "shift_jis":
		return japanese.ShiftJIS, nil
	case "euc-jp":
		return japanese.EUCJP, nil
	case "iso-2022-jp":
		return japanese.ISO2022JP, nil
	case "gbk", "gb2312":
		return simplifiedchinese.GBK, nil
	case "big5":
		return traditionalchinese.Big5, nil
	case "euc-kr":
		return korean.EUCKR, nil
	case "koi8-r":
		return charmap.KOI8R, nil
	case "windows-1251":
		return charmap.Windows1251, nil
	case "iso-8859-1":
		return charmap.ISO8859_1, nil
	case "windows-1252":
		return charmap.Windows1252, nil
	}
	return nil, fmt.Errorf("webgen: unknown charset %q", charset)
}

// Words per language, written for this package. The lists are small on
// purpose: enough for n-gram language identification to work on, and each
// encodable in every charset that langCharsets gives its language.
var words = map[string][]string{
	"th": {"ข่าว", "วันนี้", "ประเทศ", "ไทย", "การ", "ศึกษา", "รัฐบาล", "ประชาชน", "เศรษฐกิจ", "ตลาด", "ราคา", "สินค้า",
		"ท่องเที่ยว", "โรงแรม", "อาหาร", "อร่อย", "เมือง", "กรุงเทพ", "มหาวิทยาลัย", "นักเรียน", "ครู", "โรงเรียน", "วัด",
		"พระ", "ฝน", "อากาศ", "ร้อน", "เดินทาง", "รถไฟ", "ถนน", "ข้อมูล", "บริการ", "ลูกค้า", "ติดต่อ", "สมาชิก", "ความรู้",
		"สุขภาพ", "โรงพยาบาล", "กีฬา", "ฟุตบอล", "ดนตรี", "เพลง", "หนังสือ", "ภาษา", "วัฒนธรรม", "ประวัติ", "ชุมชน",
		"เกษตร", "ข้าว", "น้ำ", "แม่น้ำ", "และ", "ของ", "ที่", "ใน", "เป็น", "มี"},
	"lo": {"ຂ່າວ", "ມື້ນີ້", "ປະເທດ", "ລາວ", "ການ", "ສຶກສາ", "ລັດຖະບານ", "ປະຊາຊົນ", "ເສດຖະກິດ", "ຕະຫຼາດ", "ລາຄາ",
		"ທ່ອງທ່ຽວ", "ໂຮງແຮມ", "ອາຫານ", "ເມືອງ", "ວຽງຈັນ", "ມະຫາວິທະຍາໄລ", "ນັກຮຽນ", "ຄູ", "ໂຮງຮຽນ", "ວັດ", "ຝົນ",
		"ອາກາດ", "ເດີນທາງ", "ຖະໜົນ", "ຂໍ້ມູນ", "ບໍລິການ", "ສຸຂະພາບ", "ກິລາ", "ດົນຕີ", "ປຶ້ມ", "ພາສາ", "ວັດທະນະທຳ",
		"ຊຸມຊົນ", "ກະສິກຳ", "ເຂົ້າ", "ນ້ຳ", "ແມ່ນ້ຳຂອງ", "ແລະ", "ຂອງ", "ທີ່", "ໃນ", "ເປັນ", "ມີ"},
	"ja": {"今日", "日本", "東京", "ニュース", "天気", "経済", "市場", "価格", "旅行", "ホテル", "料理", "大学", "学生",
		"先生", "学校", "神社", "お寺", "電車", "駅", "情報", "サービス", "お客様", "健康", "病院", "野球", "音楽", "本",
		"言葉", "文化", "歴史", "地域", "農業", "米", "川", "山", "桜", "の", "は", "を", "です", "ました", "について"},
	"zh": {"今天", "中国", "北京", "新闻", "天气", "经济", "市场", "价格", "旅游", "酒店", "美食", "大学", "学生", "老师",
		"学校", "寺庙", "火车", "车站", "信息", "服务", "客户", "健康", "医院", "足球", "音乐", "书籍", "语言", "文化",
		"历史", "社区", "农业", "大米", "河流", "我们", "的", "是", "在", "发展"},
	"zh-hant": {"今天", "台灣", "台北", "新聞", "天氣", "經濟", "市場", "價格", "旅遊", "飯店", "美食", "大學", "學生",
		"老師", "學校", "寺廟", "火車", "車站", "資訊", "服務", "客戶", "健康", "醫院", "足球", "音樂", "書籍", "語言",
		"文化", "歷史", "社區", "農業", "稻米", "河流", "我們", "的", "是", "在", "發展"},
	"ko": {"오늘", "한국", "서울", "뉴스", "날씨", "경제", "시장", "가격", "여행", "호텔", "음식", "대학교", "학생",
		"선생님", "학교", "절", "기차", "역", "정보", "서비스", "고객", "건강", "병원", "축구", "음악", "책", "언어",
		"문화", "역사", "지역", "농업", "쌀", "강", "산", "우리는", "있습니다", "합니다"},
	"ru": {"сегодня", "Россия", "Москва", "новости", "погода", "экономика", "рынок", "цена", "путешествие", "гостиница",
		"еда", "университет", "студент", "учитель", "школа", "церковь", "поезд", "вокзал", "информация", "услуги",
		"клиент", "здоровье", "больница", "футбол", "музыка", "книга", "язык", "культура", "история", "община",
		"сельское", "хозяйство", "река", "лес", "мы", "это", "и", "в", "развитие"},
	"de": {"heute", "Deutschland", "Berlin", "Nachrichten", "Wetter", "Wirtschaft", "Markt", "Preis", "Reise", "Hotel",
		"Essen", "Universität", "Studenten", "Lehrer", "Schule", "Kirche", "Zug", "Bahnhof", "Informationen",
		"Dienstleistung", "Kunden", "Gesundheit", "Krankenhaus", "Fußball", "Musik", "Bücher", "Sprache", "Kultur",
		"Geschichte", "Gemeinde", "Landwirtschaft", "Fluss", "Straße", "und", "der", "die", "das", "ist", "für", "mit", "über"},
	"fr": {"aujourd'hui", "France", "Paris", "actualités", "météo", "économie", "marché", "prix", "voyage", "hôtel",
		"cuisine", "université", "étudiants", "professeur", "école", "église", "train", "gare", "informations",
		"services", "clients", "santé", "hôpital", "football", "musique", "livres", "langue", "culture", "histoire",
		"communauté", "agriculture", "rivière", "rue", "et", "le", "la", "les", "est", "pour", "avec", "très", "élevé"},
	"es": {"hoy", "España", "Madrid", "noticias", "tiempo", "economía", "mercado", "precio", "viaje", "hotel", "comida",
		"universidad", "estudiantes", "profesor", "escuela", "iglesia", "tren", "estación", "información", "servicios",
		"clientes", "salud", "hospital", "fútbol", "música", "libros", "idioma", "cultura", "historia", "comunidad",
		"agricultura", "río", "calle", "y", "el", "la", "los", "es", "para", "con", "año", "niño"},
	"vi": {"hôm nay", "Việt Nam", "Hà Nội", "tin tức", "thời tiết", "kinh tế", "thị trường", "giá cả", "du lịch",
		"khách sạn", "món ăn", "đại học", "sinh viên", "giáo viên", "trường học", "chùa", "tàu hỏa", "nhà ga",
		"thông tin", "dịch vụ", "khách hàng", "sức khỏe", "bệnh viện", "bóng đá", "âm nhạc", "sách", "ngôn ngữ",
		"văn hóa", "lịch sử", "cộng đồng", "nông nghiệp", "gạo", "sông", "và", "của", "là", "trong", "phát triển"},
	"id": {"hari ini", "Indonesia", "Jakarta", "berita", "cuaca", "ekonomi", "pasar", "harga", "perjalanan", "hotel",
		"makanan", "universitas", "mahasiswa", "guru", "sekolah", "masjid", "kereta", "stasiun", "informasi", "layanan",
		"pelanggan", "kesehatan", "rumah sakit", "sepak bola", "musik", "buku", "bahasa", "budaya", "sejarah",
		"masyarakat", "pertanian", "beras", "sungai", "dan", "yang", "adalah", "untuk", "dengan", "pembangunan"},
	// Malay as Malaysia writes it: the words it shares with Indonesian
	// (berita, harga, dan, yang) beside those it spells or says its own
	// way (universiti, kesihatan, kerana; maklumat, perkhidmatan,
	// kerajaan, where Indonesian has informasi, layanan, pemerintah).
	"ms": {"hari ini", "Malaysia", "Kuala Lumpur", "berita", "cuaca", "ekonomi", "pasaran", "harga", "perjalanan",
		"hotel", "makanan", "universiti", "pelajar", "guru", "sekolah", "masjid", "kereta api", "stesen", "maklumat",
		"perkhidmatan", "pelanggan", "kesihatan", "hospital", "bola sepak", "muzik", "buku", "bahasa", "budaya",
		"sejarah", "masyarakat", "pertanian", "beras", "sungai", "kerajaan", "wang", "kerana", "boleh", "sahaja",
		"dan", "yang", "ialah", "untuk", "dengan", "pembangunan"},
	"en": {"today", "country", "city", "news", "weather", "economy", "market", "price", "travel", "hotel", "food",
		"university", "students", "teacher", "school", "temple", "train", "station", "information", "service",
		"customers", "health", "hospital", "football", "music", "books", "language", "culture", "history",
		"community", "agriculture", "rice", "river", "and", "the", "is", "for", "with", "about", "development"},
}

// langIndex lists the languages the generator can write.
var langIndex = func() map[string]bool {
	m := map[string]bool{}
	for l := range words {
		if l != "zh-hant" {
			m[l] = true
		}
	}
	return m
}()

// textRand is a small deterministic generator (splitmix64) for page text.
type textRand uint64

func (r *textRand) next() uint64 {
	*r += 0x9e3779b97f4a7c15
	z := uint64(*r)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (r *textRand) intn(n int) int { return int(r.next() % uint64(n)) }

// sentence writes n words of list in the way the language writes them.
func sentence(b *strings.Builder, r *textRand, lang string, list []string, n int) {
	for k := range n {
		w := list[r.intn(len(list))]
		switch lang {
		case "th", "lo", "ja", "zh":
			// no spaces between words
		default:
			if k > 0 {
				b.WriteByte(' ')
			}
		}
		b.WriteString(w)
	}
	switch lang {
	case "ja", "zh":
		b.WriteString("。")
	case "th", "lo":
		// sentences end with a space, which the caller writes
	default:
		b.WriteByte('.')
	}
}

// pageText makes the title and paragraphs of a page deterministically from
// the seed and the page id. charset picks traditional characters for Big5.
func pageText(seed int64, id int32, lang, charset string) (title string, paras []string) {
	list := words[lang]
	if lang == "zh" && charset == "big5" {
		list = words["zh-hant"]
	}
	r := textRand(uint64(seed)*0x9e3779b97f4a7c15 ^ uint64(id)*0xd1b54a32d192ed03)
	var b strings.Builder
	sentence(&b, &r, lang, list, 2+r.intn(3))
	title = strings.TrimSuffix(strings.TrimSuffix(b.String(), "."), "。")
	np := 2 + r.intn(3)
	for range np {
		b.Reset()
		ns := 2 + r.intn(3)
		for k := range ns {
			if k > 0 {
				b.WriteByte(' ')
			}
			sentence(&b, &r, lang, list, 5+r.intn(7))
		}
		paras = append(paras, b.String())
	}
	return title, paras
}

// anchorText is the text of the k-th link of a page.
func anchorText(seed int64, id int32, k int, lang, charset string) string {
	list := words[lang]
	if lang == "zh" && charset == "big5" {
		list = words["zh-hant"]
	}
	r := textRand(uint64(seed)*0x2545f4914f6cdd1d ^ uint64(id)<<20 ^ uint64(k))
	var b strings.Builder
	sentence(&b, &r, lang, list, 1+r.intn(3))
	return strings.TrimSuffix(strings.TrimSuffix(b.String(), "."), "。")
}

// ncr writes every non-ASCII rune of s as a decimal numeric character
// reference, as some Thai pages do (Tamura et al. 2007 §2.3).
func ncr(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		if r < 0x80 {
			b.WriteByte(s[0])
		} else {
			b.WriteString("&#")
			b.WriteString(strconv.Itoa(int(r)))
			b.WriteByte(';')
		}
		s = s[n:]
	}
	return b.String()
}
