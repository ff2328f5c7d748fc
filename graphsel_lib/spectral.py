"""Spectral embedding (being written)."""
class SpectralEmbedding: ...
def spectral_embedding(S, d): raise NotImplementedError
def add_bias(M, b=1.0): raise NotImplementedError
