;; weft's own validation script (not from the component model's tests):
;; Explainer.md "External Visibility of Types". An instance that a
;; component imports (or exports) names every type it exports, whether or
;; not the component aliases it out: wasm-tools registers each export of
;; an imported instance as imported (validate_and_register_named_types),
;; and `jco wit` and wasmtime take these components. StarlingMonkey's
;; components (componentize-js) import wasi:http/types, alias out only
;; error-code, and use it in wasi:http/outgoing-handler's instance type;
;; error-code's cases carry records (DNS-error-payload, ...) that are
;; exported by wasi:http/types but never aliased: weft refused that as
;; "instance not valid to be used as import".
;; (Definitions: validated, not instantiated; nothing supplies their imports.)

;; The shape of StarlingMonkey's wasi:http imports.
(component definition
  (type $types (instance
    (type $p (record (field "rcode" (option string)) (field "info-code" (option u16))))
    (export "payload" (type $pn (eq $p)))
    (type $e (variant (case "dns-error" $pn) (case "other" (option string))))
    (export "error-code" (type $en (eq $e)))
    (export "request" (type $req (sub resource)))
  ))
  (import "a:b/types" (instance $t (type $types)))
  (alias export $t "error-code" (type $err))
  (alias export $t "request" (type $req))
  (type $handler (instance
    (alias outer 1 $req (type $r0))
    (export "request" (type $r (eq $r0)))
    (alias outer 1 $err (type $e0))
    (export "error-code" (type $e (eq $e0)))
    (type $own (own $r))
    (type $res (result (error $e)))
    (export "handle" (func (param "request" $own) (result $res)))
  ))
  (import "a:b/handler" (instance (type $handler)))
)

;; A function import may use the variant too: its record is named by the
;; instance import.
(component definition
  (import "a:b/types" (instance $t
    (type $p (record (field "x" u32)))
    (export "payload" (type $pn (eq $p)))
    (type $e (variant (case "a" $pn) (case "b")))
    (export "error-code" (type (eq $e)))
  ))
  (alias export $t "error-code" (type $err))
  (import "f" (func (result $err)))
)

;; Nested: an instance exported by an imported instance names its types too
;; (wasm-tools validates it; `jco wit` then says WIT has no nested instances).
(component definition
  (import "a:b/outer" (instance $o
    (export "inner" (instance
      (type $p (record (field "x" u32)))
      (export "payload" (type $pn (eq $p)))
      (type $e (variant (case "a" $pn)))
      (export "error-code" (type (eq $e)))
    ))
  ))
  (alias export $o "inner" (instance $i))
  (alias export $i "error-code" (type $err))
  (import "f" (func (result $err)))
)

;; Still refused: a record with no name at all ...
(assert_invalid
  (component
    (type $r (record (field "x" u32)))
    (import "f" (func (result $r)))
  )
  "func not valid to be used as import")

;; ... a variant whose record no import names ...
(assert_invalid
  (component
    (type $p (record (field "x" u32)))
    (import "a:b/types" (instance $t
      (export "payload" (type (eq $p)))
    ))
    (type $e (variant (case "a" $p)))
    (import "e" (type $en (eq $e)))
    (import "f" (func (result $en)))
  )
  "type not valid to be used as import")

;; ... and an import using what an exported instance names (imports cannot
;; depend on exports).
(assert_invalid
  (component
    (component $c
      (type $p (record (field "x" u32)))
      (export $pn "payload" (type $p))
      (type $e (variant (case "a" $pn)))
      (export "error-code" (type $e))
    )
    (instance $i (instantiate $c))
    (export $x "i" (instance $i))
    (alias export $x "error-code" (type $err))
    (import "f" (func (result $err)))
  )
  "func not valid to be used as import")
