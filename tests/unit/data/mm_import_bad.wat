;; A 64-bit memory cannot satisfy a 32-bit memory import.
(module (import "mm" "c" (memory 1)))
