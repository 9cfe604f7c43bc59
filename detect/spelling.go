package detect

import "strings"

// distinctive lists, per language tag, words and word pairs that mark
// text as that language rather than the other members of its close group
// (closeGroups): standard spellings and common words that differ, written
// down from the languages' spelling conventions and dictionaries, not
// learnt from any evaluation text or another detector's data. The word
// model gives each of them at least distinctiveNats for its language
// (buildWordModel), whatever the training text says: message catalogues
// and the UDHR rarely use "kerana", "kereta" or "telefon", and translators'
// habits there ("sebuah" in Indonesian user interfaces) had outweighed
// them on running text.
//
// Malay and Indonesian share most of their vocabulary; they differ in
// loanword spelling (Malay -iti, -isyen, telefon, filem; Indonesian -itas,
// -isi, telepon, film), in everyday words (kereta/mobil, wang/uang,
// percuma/gratis, kedai/toko), in month names and in a few function words
// (kerana/karena, bahawa/bahwa, iaitu/yaitu, sahaja/saja).
var distinctive = map[string]string{
	"ms": `kerana bahawa iaitu sahaja wang baharu syarikat pejabat percuma kenderaan kereta lori polis
		universiti kualiti aktiviti komuniti identiti kapasiti fakulti realiti prioriti kuantiti peratus bilion trilion
		filem muzik teksi telefon televisyen ogos julai jun disember mac mahu cuba fikir faham sebarang
		mesyuarat kakitangan jabatan mahkamah perbicaraan peguam tandas kedai kasut seluar lelaki kanak jiran
		bandar maklumat kemaskini rasmi borang biasiswa perkhidmatan kesihatan pesakit rawatan ubat doktor
		jururawat kemalangan menyiasat siasatan perisian pengaturcaraan pautan laluan tetingkap pelayar
		rangkaian tetapan carian bekalan elektrik sedap sila hantar menghantar penghantaran cukai ringgit bilik
		bas pelancong pelancongan percutian bercuti sukan perlawanan jurulatih stadium kebangsaan antarabangsa
		persekutuan parlimen mengundi kenyataan dijangka dijangkakan sentiasa semalam esok apabila manakala justeru
		berkenaan pelbagai berbeza perbezaan beza kaedah pengurusan pengurus gabenor rosak pembaikan bermula
		dimulakan kelewatan hujung beratur jadual rasuah tertuduh tempoh pasaran bimbit memperuntukkan
		bertanggungjawab kawalan merempuh lebuh perkara menerusi selepas
		muat_turun muat_naik kata_laluan lapangan_terbang kapal_terbang pilihan_raya bola_sepak
		orang_ramai tahun_lepas`,
	"id": `karena bahwa yaitu saja uang perusahaan kantor gratis kendaraan mobil truk polisi
		universitas kualitas aktivitas komunitas identitas kapasitas fakultas realitas prioritas kuantitas persen miliar triliun
		film musik taksi telepon televisi agustus juli juni desember maret mau coba pikir paham apa_pun
		rapat karyawan departemen pengadilan sidang pengacara toilet toko sepatu celana tetangga
		situs resmi formulir beasiswa layanan kesehatan pasien perawatan obat dokter
		perawat kecelakaan menyelidiki perangkat pemrograman unduh unggah tautan sandi
		jaringan koneksi pengaturan pencarian pasokan listrik enak silakan kirim mengirim pengiriman pajak rupiah kamar
		bus turis wisatawan pariwisata liburan berlibur olahraga pertandingan pelatih stadion internasional
		pemilu pernyataan diperkirakan senantiasa kemarin besok meskipun berbagai berbeda perbedaan beda
		metode penelitian pengelolaan manajer gubernur rusak perbaikan dimulai ongkos keterlambatan
		mengantre jadwal korupsi terdakwa periode kuartal ponsel mengalokasikan jalan_tol rumah_sakit
		bisa banget nggak enggak gimana udah aja sih dong kok mantan
		daring luring cocok lumayan
		kata_sandi bandara akhir_pekan sepak_bola`,
}

// distinctiveNats is the least log-likelihood ratio, in nats, a word of
// distinctive gives its language over each other member of its group.
const distinctiveNats = 2.5

// distinctiveWords returns the features of tag's list in lists
// (distinctive, or variantDistinctive): its
// words, and its word pairs, written joined by "_" ("kata_laluan") and
// returned as the word model reads them ("kata laluan").
func distinctiveWords(lists map[string]string, tag string) []string {
	ws := strings.Fields(lists[tag])
	for i, w := range ws {
		ws[i] = strings.ReplaceAll(w, "_", " ")
	}
	return ws
}
