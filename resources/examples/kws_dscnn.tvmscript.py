# from tvm.script import ir as I
# from tvm.script import tir as T
#
# USMP Explorer example (written for this project): a small depthwise-separable keyword-spotting
# CNN (49x10 MFCC input, 12 classes) lowered by the AOT executor for a Cortex-M7, printed as
# TVMScript before USMP. Six fused operators with padded inputs and accumulators, constants
# linked into the operators (T.allocate_const, data truncated as the printer does), and the
# model input and output as main's parameters.
#
#   usmpx info kws_dscnn.tvmscript.py
#   usmpx plan kws_dscnn.tvmscript.py --workspace-pools dtcm,sram --workspace-pools-size-hint-bytes dtcm:16384

@I.ir_module
class Module:
    @T.prim_func
    def tvmgen_default_fused_nn_conv2d_add_fixed_point_multiply_clip_cast(p0: T.handle, T_cast: T.handle):
        T.func_attr({"from_legacy_te_schedule": T.bool(True), "global_symbol": "tvmgen_default_fused_nn_conv2d_add_fixed_point_multiply_clip_cast", "target": T.target({"keys": ["arm_cpu", "cpu"], "kind": "c", "mcpu": "cortex-m7", "tag": ""}), "tir.noalias": T.bool(True)})
        p0_1 = T.match_buffer(p0, (1, 49, 10, 1), "int8", align=16)
        T_cast_1 = T.match_buffer(T_cast, (1, 25, 5, 64), "int8", align=16)
        fused_constant = T.allocate_const([-3, 7, 12, -25, 4, 0, 9, -14, 31, -2, 6, 18, -7, 1, 22, -9], "int8", [10, 4, 1, 64])
        fused_constant_1 = T.Buffer((2560,), "int8", data=fused_constant)
        fused_constant_2 = T.allocate_const([1204, -388, 2710, 95, -1540, 803, 0, 2213], "int32", [64])
        fused_constant_3 = T.Buffer((64,), "int32", data=fused_constant_2)
        PaddedInput = T.decl_buffer((754,), "int8")
        p0_2 = T.Buffer((490,), "int8", data=p0_1.data)
        for i1, i2 in T.grid(58, 13):
            PaddedInput[i1 * 13 + i2] = T.if_then_else(4 <= i1 and i1 < 53 and 1 <= i2 and i2 < 11, p0_2[i1 * 10 + i2 - 41], T.int8(0))
        T_cast_2 = T.Buffer((8000,), "int8", data=T_cast_1.data)
        for ax1, ax2 in T.grid(25, 5):
            Conv2dOutput = T.decl_buffer((64,), "int32")
            for ff in range(64):
                Conv2dOutput[ff] = 0
                for ry, rx in T.grid(10, 4):
                    Conv2dOutput[ff] = Conv2dOutput[ff] + T.Cast("int32", PaddedInput[ax1 * 26 + ry * 13 + ax2 * 2 + rx]) * T.Cast("int32", fused_constant_1[ry * 256 + rx * 64 + ff])
            for ax3 in range(64):
                T_cast_2[ax1 * 320 + ax2 * 64 + ax3] = T.Cast("int8", T.max(T.min(T.q_multiply_shift(Conv2dOutput[ax3] + fused_constant_3[ax3], 1593811345, 31, -8, dtype="int32"), 127), -128))

    @T.prim_func
    def tvmgen_default_fused_nn_conv2d_add_fixed_point_multiply_clip_cast_1(p0: T.handle, T_cast: T.handle):
        T.func_attr({"from_legacy_te_schedule": T.bool(True), "global_symbol": "tvmgen_default_fused_nn_conv2d_add_fixed_point_multiply_clip_cast_1", "target": T.target({"keys": ["arm_cpu", "cpu"], "kind": "c", "mcpu": "cortex-m7", "tag": ""}), "tir.noalias": T.bool(True)})
        p0_1 = T.match_buffer(p0, (1, 25, 5, 64), "int8", align=16)
        T_cast_1 = T.match_buffer(T_cast, (1, 25, 5, 64), "int8", align=16)
        fused_constant = T.allocate_const([17, -4, 8, 2, -11, 29, -6, 3, 0, -1, 14, -20], "int8", [3, 3, 64, 1])
        fused_constant_1 = T.Buffer((576,), "int8", data=fused_constant)
        fused_constant_2 = T.allocate_const([-512, 2048, 377, -90, 1111, 64, -3021, 455], "int32", [64])
        fused_constant_3 = T.Buffer((64,), "int32", data=fused_constant_2)
        PaddedInput = T.allocate([12096], "int8", "global")
        PaddedInput_1 = T.Buffer((12096,), "int8", data=PaddedInput)
        p0_2 = T.Buffer((8000,), "int8", data=p0_1.data)
        for i1, i2, i3 in T.grid(27, 7, 64):
            PaddedInput_1[i1 * 448 + i2 * 64 + i3] = T.if_then_else(1 <= i1 and i1 < 26 and 1 <= i2 and i2 < 6, p0_2[i1 * 320 + i2 * 64 + i3 - 384], T.int8(0))
        T_cast_2 = T.Buffer((8000,), "int8", data=T_cast_1.data)
        for i1, i2 in T.grid(25, 5):
            DepthwiseConv2d = T.allocate([64], "int32", "global")
            DepthwiseConv2d_1 = T.Buffer((64,), "int32", data=DepthwiseConv2d)
            for c in range(64):
                DepthwiseConv2d_1[c] = 0
                for di, dj in T.grid(3, 3):
                    DepthwiseConv2d_1[c] = DepthwiseConv2d_1[c] + T.Cast("int32", PaddedInput_1[i1 * 448 + di * 448 + i2 * 64 + dj * 64 + c]) * T.Cast("int32", fused_constant_1[di * 192 + dj * 64 + c])
            for ax3 in range(64):
                T_cast_2[i1 * 320 + i2 * 64 + ax3] = T.Cast("int8", T.max(T.min(T.q_multiply_shift(DepthwiseConv2d_1[ax3] + fused_constant_3[ax3], 1301539482, 31, -7, dtype="int32"), 127), -128))

    @T.prim_func
    def tvmgen_default_fused_nn_conv2d_add_fixed_point_multiply_clip_cast_2(p0: T.handle, T_cast: T.handle):
        T.func_attr({"from_legacy_te_schedule": T.bool(True), "global_symbol": "tvmgen_default_fused_nn_conv2d_add_fixed_point_multiply_clip_cast_2", "target": T.target({"keys": ["arm_cpu", "cpu"], "kind": "c", "mcpu": "cortex-m7", "tag": ""}), "tir.noalias": T.bool(True)})
        p0_1 = T.match_buffer(p0, (1, 25, 5, 64), "int8", align=16)
        T_cast_1 = T.match_buffer(T_cast, (1, 25, 5, 64), "int8", align=16)
        fused_constant = T.allocate_const([5, -13, 21, 0, -2, 9, 11, -30, 7, 3, -8, 16], "int8", [1, 1, 64, 64])
        fused_constant_1 = T.Buffer((4096,), "int8", data=fused_constant)
        fused_constant_2 = T.allocate_const([733, -1290, 48, 2604, -77, 315, -980, 1502], "int32", [64])
        fused_constant_3 = T.Buffer((64,), "int32", data=fused_constant_2)
        p0_2 = T.Buffer((8000,), "int8", data=p0_1.data)
        T_cast_2 = T.Buffer((8000,), "int8", data=T_cast_1.data)
        for ax0_ax1_fused_ax2_fused in range(125):
            Conv2dOutput = T.decl_buffer((64,), "int32")
            for ff in range(64):
                Conv2dOutput[ff] = 0
                for rc in range(64):
                    Conv2dOutput[ff] = Conv2dOutput[ff] + T.Cast("int32", p0_2[ax0_ax1_fused_ax2_fused * 64 + rc]) * T.Cast("int32", fused_constant_1[rc * 64 + ff])
            for ax3 in range(64):
                T_cast_2[ax0_ax1_fused_ax2_fused * 64 + ax3] = T.Cast("int8", T.max(T.min(T.q_multiply_shift(Conv2dOutput[ax3] + fused_constant_3[ax3], 1474618932, 31, -8, dtype="int32"), 127), -128))

    @T.prim_func
    def tvmgen_default_fused_nn_avg_pool2d_cast(p0: T.handle, T_cast: T.handle):
        T.func_attr({"from_legacy_te_schedule": T.bool(True), "global_symbol": "tvmgen_default_fused_nn_avg_pool2d_cast", "target": T.target({"keys": ["arm_cpu", "cpu"], "kind": "c", "mcpu": "cortex-m7", "tag": ""}), "tir.noalias": T.bool(True)})
        p0_1 = T.match_buffer(p0, (1, 25, 5, 64), "int8", align=16)
        T_cast_1 = T.match_buffer(T_cast, (1, 1, 1, 64), "int8", align=16)
        tensor = T.decl_buffer((64,), "int32")
        p0_2 = T.Buffer((8000,), "int8", data=p0_1.data)
        for ax3 in range(64):
            tensor[ax3] = 0
            for rv0, rv1 in T.grid(25, 5):
                tensor[ax3] = tensor[ax3] + T.Cast("int32", p0_2[rv0 * 320 + rv1 * 64 + ax3])
        T_cast_2 = T.Buffer((64,), "int8", data=T_cast_1.data)
        for ax3 in range(64):
            T_cast_2[ax3] = T.Cast("int8", T.max(T.min(tensor[ax3] // 125, 127), -128))

    @T.prim_func
    def tvmgen_default_fused_nn_dense_add_fixed_point_multiply_clip_cast(p0: T.handle, T_cast: T.handle):
        T.func_attr({"from_legacy_te_schedule": T.bool(True), "global_symbol": "tvmgen_default_fused_nn_dense_add_fixed_point_multiply_clip_cast", "target": T.target({"keys": ["arm_cpu", "cpu"], "kind": "c", "mcpu": "cortex-m7", "tag": ""}), "tir.noalias": T.bool(True)})
        p0_1 = T.match_buffer(p0, (1, 64), "int8", align=16)
        T_cast_1 = T.match_buffer(T_cast, (1, 12), "int8", align=16)
        fused_constant = T.allocate_const([12, -6, 3, 40, -19, 8, 0, -2, 27, -33, 5, 14], "int8", [12, 64])
        fused_constant_1 = T.Buffer((768,), "int8", data=fused_constant)
        fused_constant_2 = T.allocate_const([-2210, 870, 3317, -415, 96, -1808, 1247, 530, -64, 2931, -700, 188], "int32", [12])
        fused_constant_3 = T.Buffer((12,), "int32", data=fused_constant_2)
        T_matmul_NT = T.decl_buffer((12,), "int32")
        p0_2 = T.Buffer((64,), "int8", data=p0_1.data)
        for j in range(12):
            T_matmul_NT[j] = 0
            for k in range(64):
                T_matmul_NT[j] = T_matmul_NT[j] + T.Cast("int32", p0_2[k]) * T.Cast("int32", fused_constant_1[j * 64 + k])
        T_cast_2 = T.Buffer((12,), "int8", data=T_cast_1.data)
        for ax1 in range(12):
            T_cast_2[ax1] = T.Cast("int8", T.max(T.min(T.q_multiply_shift(T_matmul_NT[ax1] + fused_constant_3[ax1], 1876544317, 31, -9, dtype="int32"), 127), -128))

    @T.prim_func
    def tvmgen_default_fused_nn_softmax_cast(p0: T.handle, T_cast: T.handle):
        T.func_attr({"from_legacy_te_schedule": T.bool(True), "global_symbol": "tvmgen_default_fused_nn_softmax_cast", "target": T.target({"keys": ["arm_cpu", "cpu"], "kind": "c", "mcpu": "cortex-m7", "tag": ""}), "tir.noalias": T.bool(True)})
        p0_1 = T.match_buffer(p0, (1, 12), "int8", align=16)
        T_cast_1 = T.match_buffer(T_cast, (1, 12), "int8", align=16)
        T_softmax_maxelem = T.decl_buffer((1,), "float32")
        T_softmax_exp = T.decl_buffer((12,), "float32")
        T_softmax_expsum = T.decl_buffer((1,), "float32")
        p0_2 = T.Buffer((12,), "int8", data=p0_1.data)
        T_softmax_maxelem[0] = T.float32(-3.4028234663852886e+38)
        for k in range(12):
            T_softmax_maxelem[0] = T.max(T_softmax_maxelem[0], T.Cast("float32", p0_2[k]) * T.float32(0.0625))
        for i1 in range(12):
            T_softmax_exp[i1] = T.exp(T.Cast("float32", p0_2[i1]) * T.float32(0.0625) - T_softmax_maxelem[0])
        T_softmax_expsum[0] = T.float32(0)
        for k in range(12):
            T_softmax_expsum[0] = T_softmax_expsum[0] + T_softmax_exp[k]
        T_cast_2 = T.Buffer((12,), "int8", data=T_cast_1.data)
        for i1 in range(12):
            T_cast_2[i1] = T.Cast("int8", T.max(T.min(T.round(T_softmax_exp[i1] / T_softmax_expsum[0] * T.float32(256)) - T.float32(128), T.float32(127)), T.float32(-128)))

    @T.prim_func
    def __tvm_main__(input_1: T.handle, output: T.handle):
        T.func_attr({"global_symbol": "tvmgen_default___tvm_main__", "input_vars": [input_1], "output_vars": [output], "runner_function": T.bool(True), "target": T.target({"keys": ["arm_cpu", "cpu"], "kind": "c", "mcpu": "cortex-m7", "tag": ""}), "tir.noalias": T.bool(True)})
        input_buffer_var = T.match_buffer(input_1, (1, 49, 10, 1), "int8", align=16)
        output_buffer_var = T.match_buffer(output, (1, 12), "int8", align=16)
        sid_1 = T.allocate([8000], "int8", "global.workspace")
        sid_2 = T.allocate([8000], "int8", "global.workspace")
        sid_3 = T.allocate([8000], "int8", "global.workspace")
        sid_4 = T.allocate([64], "int8", "global.workspace")
        sid_5 = T.allocate([12], "int8", "global.workspace")
        T.tvm_check_return(0, -1, T.call_extern("int32", "tvmgen_default_fused_nn_conv2d_add_fixed_point_multiply_clip_cast", input_buffer_var.data, sid_1))
        T.tvm_check_return(0, -1, T.call_extern("int32", "tvmgen_default_fused_nn_conv2d_add_fixed_point_multiply_clip_cast_1", sid_1, sid_2))
        T.tvm_check_return(0, -1, T.call_extern("int32", "tvmgen_default_fused_nn_conv2d_add_fixed_point_multiply_clip_cast_2", sid_2, sid_3))
        T.tvm_check_return(0, -1, T.call_extern("int32", "tvmgen_default_fused_nn_avg_pool2d_cast", sid_3, sid_4))
        T.tvm_check_return(0, -1, T.call_extern("int32", "tvmgen_default_fused_nn_dense_add_fixed_point_multiply_clip_cast", sid_4, sid_5))
        T.tvm_check_return(0, -1, T.call_extern("int32", "tvmgen_default_fused_nn_softmax_cast", sid_5, output_buffer_var.data))
