// fuzz finding: fixed-point at reparse-input (4 input(s) in the campaign; first: seed 2, input 621)
//   printed IR does not parse back: fuzz-2-621.mlir:3:5: error: invalid attribute value "\E4\B8\ADf_c2v": expected a string attribute (e.g. "name")
// Regression test once fixed (the oracle must report nothing):
// RUN: %python -m pypto_mlir.fuzz check %s
builtin.module attributes{}{func.func@f_aic(){pto.import_peer_buffer{name="中f_c2v",peer_func=@f_aiv}:i32
    func.return}func.func@f_aiv()attributes{pto.kind=#pto.kind<aiv>}{}}
