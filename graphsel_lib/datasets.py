"""Dataset registry and loaders (placeholder: being written)."""

__all__ = ["list_datasets", "load_dataset"]


def list_datasets():
    raise NotImplementedError


def load_dataset(name, **kwargs):
    raise NotImplementedError
