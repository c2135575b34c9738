# bench.rb: a Ruby script for the pair corpus (bench/corpus/list), run by
# ruby.wasm from the npm package @ruby/3.3-wasm-wasi: objects and method
# calls, blocks, hashes of strings, array sorting, string building and
# integer arithmetic. Fixed work, no clock, no randomness, no input.
class Vec
  attr_reader :x, :y
  def initialize(x, y) = (@x = x; @y = y)
  def +(o) = Vec.new(@x + o.x, @y + o.y)
  def dot(o) = @x * o.x + @y * o.y
end

seed = 42
rnd = -> { seed = (seed * 1103515245 + 12345) & 0x7fffffff; seed >> 8 }

words = %w[alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu]
counts = Hash.new(0)
text = +""
4_000.times do |i|
  w = words[rnd.call % words.size] + (rnd.call % 50).to_s
  counts[w] += 1
  text << w << (i % 17 == 0 ? "\n" : " ")
end
top = counts.sort_by { |k, v| [-v, k] }.first(3)
puts "words #{counts.size}, text #{text.size} bytes, lines #{text.count("\n")}, top #{top.map { |k, v| "#{k}:#{v}" }.join(' ')}"

acc = Vec.new(0, 0)
dots = 0
8_000.times do |i|
  v = Vec.new(rnd.call % 1000, rnd.call % 1000)
  acc += v
  dots = (dots + v.dot(acc)) % 1_000_000_007
end
puts "vec #{acc.x},#{acc.y} dots #{dots}"

arr = Array.new(6_000) { rnd.call % 100_000 }
sorted = arr.sort
uniq = arr.uniq.size
evens = arr.select(&:even?).sum
puts "sorted #{sorted.first}..#{sorted.last} median #{sorted[sorted.size / 2]} uniq #{uniq} evens #{evens}"

def fib(n) = n < 2 ? n : fib(n - 1) + fib(n - 2)
puts "fib #{fib(18)}"

primes = (2..5_000).select { |n| (2..Integer.sqrt(n)).none? { |d| (n % d).zero? } }
puts "primes #{primes.size} last #{primes.last}"
