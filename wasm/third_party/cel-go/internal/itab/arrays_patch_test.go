package itab

// arrays gives values of 72 array types that are shapes: more types than
// a Cache has slots, so that some share a slot and replace each other.
func arrays() []any {
	return []any{
		a1{}, a2{}, a3{}, a4{}, a5{}, a6{}, a7{}, a8{},
		a9{}, a10{}, a11{}, a12{}, a13{}, a14{}, a15{}, a16{},
		a17{}, a18{}, a19{}, a20{}, a21{}, a22{}, a23{}, a24{},
		a25{}, a26{}, a27{}, a28{}, a29{}, a30{}, a31{}, a32{},
		a33{}, a34{}, a35{}, a36{}, a37{}, a38{}, a39{}, a40{},
		a41{}, a42{}, a43{}, a44{}, a45{}, a46{}, a47{}, a48{},
		a49{}, a50{}, a51{}, a52{}, a53{}, a54{}, a55{}, a56{},
		a57{}, a58{}, a59{}, a60{}, a61{}, a62{}, a63{}, a64{},
		a65{}, a66{}, a67{}, a68{}, a69{}, a70{}, a71{}, a72{},
	}
}

type (
	a1  [1]byte
	a2  [2]byte
	a3  [3]byte
	a4  [4]byte
	a5  [5]byte
	a6  [6]byte
	a7  [7]byte
	a8  [8]byte
	a9  [9]byte
	a10 [10]byte
	a11 [11]byte
	a12 [12]byte
	a13 [13]byte
	a14 [14]byte
	a15 [15]byte
	a16 [16]byte
	a17 [17]byte
	a18 [18]byte
	a19 [19]byte
	a20 [20]byte
	a21 [21]byte
	a22 [22]byte
	a23 [23]byte
	a24 [24]byte
	a25 [25]byte
	a26 [26]byte
	a27 [27]byte
	a28 [28]byte
	a29 [29]byte
	a30 [30]byte
	a31 [31]byte
	a32 [32]byte
	a33 [33]byte
	a34 [34]byte
	a35 [35]byte
	a36 [36]byte
	a37 [37]byte
	a38 [38]byte
	a39 [39]byte
	a40 [40]byte
	a41 [41]byte
	a42 [42]byte
	a43 [43]byte
	a44 [44]byte
	a45 [45]byte
	a46 [46]byte
	a47 [47]byte
	a48 [48]byte
	a49 [49]byte
	a50 [50]byte
	a51 [51]byte
	a52 [52]byte
	a53 [53]byte
	a54 [54]byte
	a55 [55]byte
	a56 [56]byte
	a57 [57]byte
	a58 [58]byte
	a59 [59]byte
	a60 [60]byte
	a61 [61]byte
	a62 [62]byte
	a63 [63]byte
	a64 [64]byte
	a65 [65]byte
	a66 [66]byte
	a67 [67]byte
	a68 [68]byte
	a69 [69]byte
	a70 [70]byte
	a71 [71]byte
	a72 [72]byte
)

func (a1) Area() int  { return 1 }
func (a2) Area() int  { return 2 }
func (a3) Area() int  { return 3 }
func (a4) Area() int  { return 4 }
func (a5) Area() int  { return 5 }
func (a6) Area() int  { return 6 }
func (a7) Area() int  { return 7 }
func (a8) Area() int  { return 8 }
func (a9) Area() int  { return 9 }
func (a10) Area() int { return 10 }
func (a11) Area() int { return 11 }
func (a12) Area() int { return 12 }
func (a13) Area() int { return 13 }
func (a14) Area() int { return 14 }
func (a15) Area() int { return 15 }
func (a16) Area() int { return 16 }
func (a17) Area() int { return 17 }
func (a18) Area() int { return 18 }
func (a19) Area() int { return 19 }
func (a20) Area() int { return 20 }
func (a21) Area() int { return 21 }
func (a22) Area() int { return 22 }
func (a23) Area() int { return 23 }
func (a24) Area() int { return 24 }
func (a25) Area() int { return 25 }
func (a26) Area() int { return 26 }
func (a27) Area() int { return 27 }
func (a28) Area() int { return 28 }
func (a29) Area() int { return 29 }
func (a30) Area() int { return 30 }
func (a31) Area() int { return 31 }
func (a32) Area() int { return 32 }
func (a33) Area() int { return 33 }
func (a34) Area() int { return 34 }
func (a35) Area() int { return 35 }
func (a36) Area() int { return 36 }
func (a37) Area() int { return 37 }
func (a38) Area() int { return 38 }
func (a39) Area() int { return 39 }
func (a40) Area() int { return 40 }
func (a41) Area() int { return 41 }
func (a42) Area() int { return 42 }
func (a43) Area() int { return 43 }
func (a44) Area() int { return 44 }
func (a45) Area() int { return 45 }
func (a46) Area() int { return 46 }
func (a47) Area() int { return 47 }
func (a48) Area() int { return 48 }
func (a49) Area() int { return 49 }
func (a50) Area() int { return 50 }
func (a51) Area() int { return 51 }
func (a52) Area() int { return 52 }
func (a53) Area() int { return 53 }
func (a54) Area() int { return 54 }
func (a55) Area() int { return 55 }
func (a56) Area() int { return 56 }
func (a57) Area() int { return 57 }
func (a58) Area() int { return 58 }
func (a59) Area() int { return 59 }
func (a60) Area() int { return 60 }
func (a61) Area() int { return 61 }
func (a62) Area() int { return 62 }
func (a63) Area() int { return 63 }
func (a64) Area() int { return 64 }
func (a65) Area() int { return 65 }
func (a66) Area() int { return 66 }
func (a67) Area() int { return 67 }
func (a68) Area() int { return 68 }
func (a69) Area() int { return 69 }
func (a70) Area() int { return 70 }
func (a71) Area() int { return 71 }
func (a72) Area() int { return 72 }
