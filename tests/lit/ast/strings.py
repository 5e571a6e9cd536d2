# RUN: %kjitc --emit=ast %s:strings | FileCheck --strict-whitespace --match-full-lines %s
# String and bytes literals: quotes, prefixes, escapes, implicit
# concatenation. The printer shows the decoded value, re-escaped.
def strings(x):
    a = 'single', "double"
    b = '''triple single''', """triple double"""
    c = """first line
second line"""
    d = "it's", 'say "hi"', '\'', "\""
    e = r'raw\n', R"raw\d+", r'\'', rb'\x00', Rb"\n", bR'x', BR"x"
    f = b'bytes', B"BYTES", b'\x41\x42', b'\t\0'
    g = "tab\tnewline\nreturn\rback\\bell\a"
    h = "\x41\101\u00e9\U0001F600"
    i = '\0', '\7', '\x7f', '\q', '\ '
    j = 'adj' "acent" '''concat''' r'\raw'
    k = b'a' b'b' rb'\c'
    l = u'unicode', U"UNICODE"
    m = "continued \
string"
    n = ''
    o = "é → ∑"
    p = b'\u1234'
    return 'done'

# CHECK:def strings(x) <4:1>
# CHECK-NEXT:  assign <5:5> a = (tuple "single" "double")
# CHECK-NEXT:  assign <6:5> b = (tuple "triple single" "triple double")
# CHECK-NEXT:  assign <7:5> c = "first line\nsecond line"
# CHECK-NEXT:  assign <9:5> d = (tuple "it's" "say \"hi\"" "'" "\"")
# CHECK-NEXT:  assign <10:5> e = (tuple "raw\\n" "raw\\d+" "\\'" b"\\x00" b"\\n" b"x" b"x")
# CHECK-NEXT:  assign <11:5> f = (tuple b"bytes" b"BYTES" b"AB" b"\t\x00")
# CHECK-NEXT:  assign <12:5> g = "tab\tnewline\nreturn\rback\\bell\x07"
# CHECK-NEXT:  assign <13:5> h = "AAé😀"
# CHECK-NEXT:  assign <14:5> i = (tuple "\x00" "\x07" "\x7f" "\\q" "\\ ")
# CHECK-NEXT:  assign <15:5> j = "adjacentconcat\\raw"
# CHECK-NEXT:  assign <16:5> k = b"ab\\c"
# CHECK-NEXT:  assign <17:5> l = (tuple "unicode" "UNICODE")
# CHECK-NEXT:  assign <18:5> m = "continued string"
# CHECK-NEXT:  assign <20:5> n = ""
# CHECK-NEXT:  assign <21:5> o = "é → ∑"
# CHECK-NEXT:  assign <22:5> p = b"\\u1234"
# CHECK-NEXT:  return <23:5> "done"
# CHECK-NOT:{{.}}
