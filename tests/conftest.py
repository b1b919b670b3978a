"""pytest configuration shared by every test folder. Being at the top of tests/, this file puts tests/ on
sys.path, so every test imports the random kernel generator as `kernelgen` wherever it sits."""
