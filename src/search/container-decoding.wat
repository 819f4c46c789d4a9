;; Reads a coded container (container-codings.ts) back, as a bitset of 8 KB or as its documents' low 16 bits, in
;; WebAssembly, which runs these loops faster than JavaScript did (docs/performance.md). The caller copies the
;; container's bytes into the memory (with 8 zero bytes after them: a read may run past the end) and says where the
;; result goes. Each loop stores a document as a bit or as a value by a test written into it, not by a call, which
;; V8 does not inline. `npm run build:wasm` assembles this file into container-decoding-module.ts.
(module
  (memory (export "memory") 7)

  ;; $count gaps at $in, each a byte (a document's distance from the one before, less one), or 255 and 2 bytes
  ;; little-endian; as a bitset of 8 KB at $out (zeroed here first) or as 16-bit values ($bits: 1 or 0).
  (func (export "gaps") (param $in i32) (param $count i32) (param $out i32) (param $bits i32)
    (local $i i32) (local $value i32) (local $gap i32) (local $at i32)
    (if (local.get $bits) (then (memory.fill (local.get $out) (i32.const 0) (i32.const 8192))))
    (local.set $value (i32.const -1))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
        (local.set $gap (i32.load8_u (local.get $in)))
        (if (i32.eq (local.get $gap) (i32.const 255))
          (then
            (local.set $gap (i32.load16_u offset=1 (local.get $in)))
            (local.set $in (i32.add (local.get $in) (i32.const 2)))))
        (local.set $in (i32.add (local.get $in) (i32.const 1)))
        (local.set $value (i32.add (local.get $value) (i32.add (local.get $gap) (i32.const 1))))
        (if (local.get $bits)
          (then
            (local.set $at (i32.add (local.get $out) (i32.shl (i32.shr_u (local.get $value) (i32.const 5)) (i32.const 2))))
            (i32.store (local.get $at) (i32.or (i32.load (local.get $at)) (i32.shl (i32.const 1) (local.get $value)))))
          (else
            (i32.store16 (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 1))) (local.get $value))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next))))

;; $count documents in Elias-Fano's coding with $low low bits each: at $in the low parts, $low bits each, least
  ;; significant first; then, from the next whole byte, the high parts in unary (a document's high part is the zeros
  ;; before its one), $count + (65536 >> $low) bits, and zero bytes after them. Into $out as `gaps` writes.
  (func (export "eliasFano") (param $in i32) (param $count i32) (param $low i32) (param $out i32) (param $bits i32)
    (local $high i32) (local $mask i32) (local $word i64) (local $base i32) (local $i i32) (local $at i32)
    (local $value i32) (local $to i32)
    (if (local.get $bits) (then (memory.fill (local.get $out) (i32.const 0) (i32.const 8192))))
    (local.set $high (i32.add (local.get $in)
      (i32.shr_u (i32.add (i32.mul (local.get $count) (local.get $low)) (i32.const 7)) (i32.const 3))))
    (local.set $mask (i32.sub (i32.shl (i32.const 1) (local.get $low)) (i32.const 1)))
    ;; $base: the index of $word's bit 0 among the high parts' bits; a one's index less the ones before it is its high
    ;; part. $at: the bit where the low part of document $i begins.
    (block $done
      (loop $words
        (br_if $done (i32.ge_u (local.get $i) (local.get $count)))
        (local.set $word (i64.load (local.get $high)))
        (block $empty
          (loop $ones
            (br_if $empty (i64.eqz (local.get $word)))
            (local.set $value
              (i32.or
                (i32.shl
                  (i32.sub (i32.add (local.get $base) (i32.wrap_i64 (i64.ctz (local.get $word)))) (local.get $i))
                  (local.get $low))
                (i32.and
                  (i32.shr_u (i32.load (i32.add (local.get $in) (i32.shr_u (local.get $at) (i32.const 3))))
                             (i32.and (local.get $at) (i32.const 7)))
                  (local.get $mask))))
            (if (local.get $bits)
              (then
                (local.set $to (i32.add (local.get $out) (i32.shl (i32.shr_u (local.get $value) (i32.const 5)) (i32.const 2))))
                (i32.store (local.get $to) (i32.or (i32.load (local.get $to)) (i32.shl (i32.const 1) (local.get $value)))))
              (else
                (i32.store16 (i32.add (local.get $out) (i32.shl (local.get $i) (i32.const 1))) (local.get $value))))
            (local.set $word (i64.and (local.get $word) (i64.sub (local.get $word) (i64.const 1))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (local.set $at (i32.add (local.get $at) (local.get $low)))
            (br $ones)))
        (local.set $high (i32.add (local.get $high) (i32.const 8)))
        (local.set $base (i32.add (local.get $base) (i32.const 64)))
        (br $words))))
)
