#!/usr/bin/env python3
"""design.py — the Verilog design that the corpus's Yosys run synthesises
(bench/corpus/list): N 16-bit registers, each updated from two others
through an adder, a subtractor, a comparator-driven mux and a shift, a
small state machine that selects the mode, and a 64-word memory. The
design is fixed by N (default 300): the same text every time.

Usage: design.py [N] > design.v
"""
import sys


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    out = []
    w = out.append
    w("module top(input clk, input rst, input [15:0] din, input [5:0] addr, output [15:0] dout);")
    w("  reg [1:0] state;")
    w("  reg [15:0] mem [0:63];")
    w("  reg [15:0] rd;")
    for i in range(n):
        w("  reg [15:0] r%d;" % i)
    w("  always @(posedge clk) begin")
    w("    if (rst) state <= 0;")
    w("    else case (state)")
    w("      0: state <= din[0] ? 1 : 0;")
    w("      1: state <= din[1] ? 2 : 3;")
    w("      2: state <= 3;")
    w("      3: state <= din[2] ? 0 : 1;")
    w("    endcase")
    w("    mem[addr] <= r%d;" % (n - 1))
    w("    rd <= mem[addr ^ 6'h15];")
    w("  end")
    for i in range(n):
        a, b = (i * 7 + 3) % n, (i * 13 + 5) % n
        src_a = "din" if i == 0 else "r%d" % a
        k = (i * 2654435761) & 0xFFFF
        w("  always @(posedge clk)")
        w("    if (rst) r%d <= 16'h%04x;" % (i, k))
        w("    else case (state)")
        w("      0: r%d <= %s + r%d;" % (i, src_a, b))
        w("      1: r%d <= (%s > r%d) ? %s - r%d : r%d ^ 16'h%04x;" % (i, src_a, b, src_a, b, b, k))
        w("      2: r%d <= {r%d[%d:0], r%d[15:%d]} + rd;" % (i, b, 15 - (i % 15) - 1, b, 15 - (i % 15)))
        w("      default: r%d <= r%d & %s;" % (i, i, src_a))
        w("    endcase")
    w("  assign dout = r%d ^ rd;" % (n - 1))
    w("endmodule")
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
