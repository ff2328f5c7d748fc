"""``prefetch(a, i)``: a hint, inside numba-compiled code, that ``a[i]`` will be read soon.

It compiles to LLVM's ``llvm.prefetch`` (read, keep in every cache level),
which the processor may ignore: it never changes a result, only when the
memory arrives. For an array of more than one dimension it names the row
``a[i]`` (its first element). The index is not checked.
"""

from __future__ import annotations

from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

__all__ = ["prefetch"]


@intrinsic
def prefetch(typingctx, arr, i):
    if not isinstance(arr, types.Array) or not isinstance(i, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        aryty, idxty = sig.args
        ary = context.make_array(aryty)(context, builder, args[0])
        idx = context.cast(builder, args[1], idxty, types.intp)
        zero = context.get_constant(types.intp, 0)
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [idx] + [zero] * (aryty.ndim - 1))
        i8p, i32 = ir.IntType(8).as_pointer(), ir.IntType(32)
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]), "llvm.prefetch.p0"
        )
        # read (0), keep in all cache levels (locality 3), data cache (1)
        builder.call(
            fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)]
        )
        return context.get_dummy_value()

    return types.void(arr, i), codegen
