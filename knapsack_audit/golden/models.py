"""The model zoo compiled by the golden capture: small, CPU-fast, deterministic.

Each :class:`ModelSpec` builds a fresh module (parameters from a fixed seed)
and its inputs, so a re-capture on the same torch version reproduces the
partitioner's knapsack inputs exactly. The zoo covers the graph shapes the
partitioner meets in practice: matmul chains (``mlp``, ``mlp_wide``), attention with layer
norm (``transformer``), convolutions with batch norm (``convnet``), an
unrolled recurrence (``gru``), random number generation (``dropout_mlp``), a
residual stack with GELU (``resnet_mlp``), an LSTM (``lstm``), PyTorch's
encoder layers (``sdpa_encoder``), MLP-Mixer blocks (``mixer``) and one graph
large enough that a single knapsack call has over 300 items (``deep_narrow``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import torch
from torch import nn

SEED = 0


@dataclass(frozen=True)
class ModelSpec:
    """How to build one zoo model and its inputs.

    Attributes:
        name: the fixture name (``<name>-<estimator>.json.gz``).
        build: returns the module, in training mode.
        input_shapes: shapes of the float32 inputs, in call order.
    """

    name: str
    build: Callable[[], nn.Module]
    input_shapes: tuple[tuple[int, ...], ...]

    def instantiate(self) -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
        """The module and its inputs, both drawn from the fixed seed."""
        torch.manual_seed(SEED)
        module = self.build().train()
        inputs = tuple(torch.randn(*shape) for shape in self.input_shapes)
        return module, inputs


class MLP(nn.Module):
    """Three linear layers with ReLU."""

    def __init__(self, width: int = 64) -> None:
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(width, 4 * width),
            nn.ReLU(),
            nn.Linear(4 * width, 4 * width),
            nn.ReLU(),
            nn.Linear(4 * width, width),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.layers(x)  # type: ignore[no-any-return]


class Block(nn.Module):
    """Pre-norm transformer block: self-attention and a GELU MLP, both residual."""

    def __init__(self, width: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)
        self.norm2 = nn.LayerNorm(width)
        self.up = nn.Linear(width, 4 * width)
        self.down = nn.Linear(4 * width, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, length, width = x.shape
        q, k, v = self.qkv(self.norm1(x)).chunk(3, dim=-1)
        shape = (batch, length, self.heads, width // self.heads)
        q, k, v = (t.reshape(shape).transpose(1, 2) for t in (q, k, v))
        scores = (q @ k.transpose(-2, -1)) / (width // self.heads) ** 0.5
        attention = scores.softmax(dim=-1) @ v
        x = x + self.proj(attention.transpose(1, 2).reshape(batch, length, width))
        out: torch.Tensor = x + self.down(nn.functional.gelu(self.up(self.norm2(x))))
        return out


class Transformer(nn.Module):
    """A stack of transformer blocks with a final layer norm."""

    def __init__(self, width: int = 32, heads: int = 4, depth: int = 2) -> None:
        super().__init__()
        self.blocks = nn.Sequential(*(Block(width, heads) for _ in range(depth)))
        self.norm = nn.LayerNorm(width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(self.blocks(x))  # type: ignore[no-any-return]


class ConvNet(nn.Module):
    """Two conv + batch norm + ReLU stages, pooling and a linear head."""

    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1),
            nn.BatchNorm2d(8),
            nn.ReLU(),
            nn.Conv2d(8, 16, 3, padding=1),
            nn.BatchNorm2d(16),
            nn.ReLU(),
            nn.MaxPool2d(2),
        )
        self.head = nn.Linear(16 * 8 * 8, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x).flatten(1))  # type: ignore[no-any-return]


class UnrolledGRU(nn.Module):
    """A GRU cell applied over the time steps of the input (a Python loop)."""

    def __init__(self, features: int = 16, hidden: int = 32) -> None:
        super().__init__()
        self.hidden = hidden
        self.cell = nn.GRUCell(features, hidden)
        self.head = nn.Linear(hidden, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        state = x.new_zeros(x.shape[0], self.hidden)
        for step in range(x.shape[1]):
            state = self.cell(x[:, step], state)
        return self.head(state)  # type: ignore[no-any-return]


class DropoutMLP(nn.Module):
    """An MLP with dropout after each hidden layer (RNG in the graph)."""

    def __init__(self, width: int = 64) -> None:
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(width, 2 * width),
            nn.ReLU(),
            nn.Dropout(0.25),
            nn.Linear(2 * width, 2 * width),
            nn.Tanh(),
            nn.Dropout(0.25),
            nn.Linear(2 * width, width),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.layers(x)  # type: ignore[no-any-return]


class ResidualMLP(nn.Module):
    """Residual layer-normed GELU blocks."""

    def __init__(self, width: int = 48, depth: int = 4) -> None:
        super().__init__()
        self.norms = nn.ModuleList(nn.LayerNorm(width) for _ in range(depth))
        self.linears = nn.ModuleList(nn.Linear(width, width) for _ in range(depth))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for norm, linear in zip(self.norms, self.linears, strict=True):
            x = x + nn.functional.gelu(linear(norm(x)))
        return x


class DeepNarrow(nn.Module):
    """A deep stack of narrow matmuls with pointwise activations.

    Every matmul is banned from recomputation by the min-cut heuristics
    (``compute_intensive_ops``) yet recomputable, so each is one knapsack
    item: a single call has more than 300 items. Widths cycle so that items
    differ in size.
    """

    WIDTHS = (8, 12, 16, 6)

    def __init__(self, depth: int = 320) -> None:
        super().__init__()
        widths = [self.WIDTHS[i % len(self.WIDTHS)] for i in range(depth + 1)]
        self.weights = nn.ParameterList(
            nn.Parameter(torch.randn(widths[i], widths[i + 1]) / widths[i] ** 0.5)
            for i in range(depth)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for weight in self.weights:
            x = torch.tanh(x @ weight)
        return x


class UnrolledLSTM(nn.Module):
    """An LSTM cell applied over the time steps of the input."""

    def __init__(self, features: int = 12, hidden: int = 24) -> None:
        super().__init__()
        self.hidden = hidden
        self.cell = nn.LSTMCell(features, hidden)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = c = x.new_zeros(x.shape[0], self.hidden)
        for step in range(x.shape[1]):
            h, c = self.cell(x[:, step], (h, c))
        return h


class SDPAEncoder(nn.Module):
    """PyTorch's own encoder layers (scaled dot-product attention), two deep."""

    def __init__(self, width: int = 32) -> None:
        super().__init__()
        layer = nn.TransformerEncoderLayer(
            width, nhead=4, dim_feedforward=64, dropout=0.0, batch_first=True
        )
        self.encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.encoder(x)  # type: ignore[no-any-return]


class Mixer(nn.Module):
    """MLP-Mixer blocks: token mixing and channel mixing, with layer norm."""

    def __init__(self, tokens: int = 16, channels: int = 24, depth: int = 2) -> None:
        super().__init__()
        self.token_norms = nn.ModuleList(nn.LayerNorm(channels) for _ in range(depth))
        self.token_mlps = nn.ModuleList(
            nn.Sequential(nn.Linear(tokens, 2 * tokens), nn.GELU(), nn.Linear(2 * tokens, tokens))
            for _ in range(depth)
        )
        self.channel_norms = nn.ModuleList(nn.LayerNorm(channels) for _ in range(depth))
        self.channel_mlps = nn.ModuleList(
            nn.Sequential(
                nn.Linear(channels, 2 * channels), nn.GELU(), nn.Linear(2 * channels, channels)
            )
            for _ in range(depth)
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for token_norm, token_mlp, channel_norm, channel_mlp in zip(
            self.token_norms, self.token_mlps, self.channel_norms, self.channel_mlps, strict=True
        ):
            x = x + token_mlp(token_norm(x).transpose(1, 2)).transpose(1, 2)
            x = x + channel_mlp(channel_norm(x))
        return x


ZOO: tuple[ModelSpec, ...] = (
    ModelSpec("mlp", MLP, ((32, 64),)),
    ModelSpec("mlp_wide", partial(MLP, 96), ((16, 96),)),
    ModelSpec("transformer", Transformer, ((4, 16, 32),)),
    ModelSpec("convnet", ConvNet, ((4, 3, 16, 16),)),
    ModelSpec("gru", UnrolledGRU, ((8, 6, 16),)),
    ModelSpec("dropout_mlp", DropoutMLP, ((32, 64),)),
    ModelSpec("resnet_mlp", ResidualMLP, ((16, 48),)),
    ModelSpec("lstm", UnrolledLSTM, ((8, 5, 12),)),
    ModelSpec("sdpa_encoder", SDPAEncoder, ((4, 12, 32),)),
    ModelSpec("mixer", Mixer, ((4, 16, 24),)),
    ModelSpec("deep_narrow", DeepNarrow, ((4, 8),)),
)
"""Every model the golden capture compiles, by fixture name."""


def by_name(name: str) -> ModelSpec:
    """The zoo entry called ``name``."""
    for spec in ZOO:
        if spec.name == name:
            return spec
    raise KeyError(f"no model {name!r} in the zoo; known: {[spec.name for spec in ZOO]}")
