# RUN: %kjitc --emit=tokens %s | FileCheck --strict-whitespace --match-full-lines %s
# The token stream: line:col-endline:endcol, the kind, and the value.
# Comment and blank lines make no tokens; INDENT spans the indentation,
# DEDENTs sit at the next token; one NEWLINE ends each logical line. At the
# end of input (past these CHECK lines) come the DEDENTs left, then EOF.
def k(x):
    if x:
        y = 0x1F + 1_0 - .5e1j  # comment

        z = (1.,
             2e-3)
    # comment at another indentation
    s = r'\n' b"\x41" f'{x}' """a
b"""
    t = x ** 2 // 3 != 4 <= 5 \
        >> 6
    while t:
        t >>= ... -> :=

# CHECK:6:1-6:4 def
# CHECK-NEXT:6:5-6:6 name k
# CHECK-NEXT:6:6-6:7 (
# CHECK-NEXT:6:7-6:8 name x
# CHECK-NEXT:6:8-6:9 )
# CHECK-NEXT:6:9-6:10 :
# CHECK-NEXT:6:10-6:11 end of line
# CHECK-NEXT:7:1-7:5 indent
# CHECK-NEXT:7:5-7:7 if
# CHECK-NEXT:7:8-7:9 name x
# CHECK-NEXT:7:9-7:10 :
# CHECK-NEXT:7:10-7:11 end of line
# CHECK-NEXT:8:1-8:9 indent
# CHECK-NEXT:8:9-8:10 name y
# CHECK-NEXT:8:11-8:12 =
# CHECK-NEXT:8:13-8:17 integer literal 31
# CHECK-NEXT:8:18-8:19 +
# CHECK-NEXT:8:20-8:23 integer literal 10
# CHECK-NEXT:8:24-8:25 -
# CHECK-NEXT:8:26-8:31 imaginary literal 5
# CHECK-NEXT:8:42-8:43 end of line
# CHECK-NEXT:10:9-10:10 name z
# CHECK-NEXT:10:11-10:12 =
# CHECK-NEXT:10:13-10:14 (
# CHECK-NEXT:10:14-10:16 float literal 1
# CHECK-NEXT:10:16-10:17 ,
# CHECK-NEXT:11:14-11:18 float literal 0.002
# CHECK-NEXT:11:18-11:19 )
# CHECK-NEXT:11:19-11:20 end of line
# CHECK-NEXT:13:5-13:6 dedent
# CHECK-NEXT:13:5-13:6 name s
# CHECK-NEXT:13:7-13:8 =
# CHECK-NEXT:13:9-13:14 string literal "\x5cn"
# CHECK-NEXT:13:15-13:22 string literal b"A"
# CHECK-NEXT:13:23-13:29 string literal f"{x}"
# CHECK-NEXT:13:30-14:5 string literal "a\x0ab"
# CHECK-NEXT:14:5-14:6 end of line
# CHECK-NEXT:15:5-15:6 name t
# CHECK-NEXT:15:7-15:8 =
# CHECK-NEXT:15:9-15:10 name x
# CHECK-NEXT:15:11-15:13 **
# CHECK-NEXT:15:14-15:15 integer literal 2
# CHECK-NEXT:15:16-15:18 //
# CHECK-NEXT:15:19-15:20 integer literal 3
# CHECK-NEXT:15:21-15:23 !=
# CHECK-NEXT:15:24-15:25 integer literal 4
# CHECK-NEXT:15:26-15:28 <=
# CHECK-NEXT:15:29-15:30 integer literal 5
# CHECK-NEXT:16:9-16:11 >>
# CHECK-NEXT:16:12-16:13 integer literal 6
# CHECK-NEXT:16:13-16:14 end of line
# CHECK-NEXT:17:5-17:10 while
# CHECK-NEXT:17:11-17:12 name t
# CHECK-NEXT:17:12-17:13 :
# CHECK-NEXT:17:13-17:14 end of line
# CHECK-NEXT:18:1-18:9 indent
# CHECK-NEXT:18:9-18:10 name t
# CHECK-NEXT:18:11-18:14 >>=
# CHECK-NEXT:18:15-18:18 ...
# CHECK-NEXT:18:19-18:21 ->
# CHECK-NEXT:18:22-18:24 :=
# CHECK-NEXT:18:24-18:25 end of line
# CHECK-NEXT:{{[0-9]+}}:1-{{[0-9]+}}:2 dedent
# CHECK-NEXT:{{[0-9]+}}:1-{{[0-9]+}}:2 dedent
# CHECK-NEXT:{{[0-9]+}}:1-{{[0-9]+}}:2 end of input
# CHECK-NOT:{{.}}
