# The thread-start shim of the test guests (what wasi-libc's
# wasi_thread_start does): give the new instance its own shadow stack, read
# from the start argument's first word, then call rt_thread_entry in C.
	.text
	.globaltype	__stack_pointer, i32
	.functype	rt_thread_entry (i32, i32) -> ()

	.globl	wasi_thread_start
	.type	wasi_thread_start,@function
wasi_thread_start:
	.functype	wasi_thread_start (i32, i32) -> ()
	local.get	1
	i32.load	0
	global.set	__stack_pointer
	local.get	0
	local.get	1
	call	rt_thread_entry
	end_function
