package engine

// The IANA time zone database, compiled in: WASI gives the module no
// /usr/share/zoneinfo, and timestamp functions take zone names
// (ts.getHours('Australia/Sydney')). Native builds still prefer the
// system's database when it has one.
import _ "time/tzdata"
