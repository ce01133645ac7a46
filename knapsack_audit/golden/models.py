"""The model zoo compiled by the golden capture: deterministic, CPU-sized.

Each :class:`ModelSpec` builds a fresh module (parameters from a fixed seed)
and its inputs, so a re-capture on the same torch version reproduces the
partitioner's knapsack inputs exactly. The zoo covers the graph shapes the
partitioner meets in practice: matmul chains (``mlp``, ``mlp_wide``), attention with layer
norm (``transformer``), convolutions with batch norm (``convnet``), an
unrolled recurrence (``gru``), random number generation (``dropout_mlp``), a
residual stack with GELU (``resnet_mlp``), an LSTM (``lstm``), PyTorch's
encoder layers (``sdpa_encoder``), MLP-Mixer blocks (``mixer``) and one graph
large enough that a single knapsack call has over 300 items (``deep_narrow``).

:data:`REAL_SCALE_ZOO` keeps the depth of real models (GPT-2 XL,
LLaMA-3, Mixtral, ViT-L, ResNet-101) and shrinks width and sequence length to
fit a CPU: their repeated blocks give the partitioner calls of hundreds of
items weighing a few units each, the workload where upstream's Hirschberg
solver goes over budget.
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


class CausalSelfAttention(nn.Module):
    """GPT-2 attention: one fused QKV projection, a causal mask, an output projection."""

    mask: torch.Tensor

    def __init__(self, width: int, heads: int, length: int) -> None:
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)
        self.register_buffer("mask", torch.ones(length, length, dtype=torch.bool).tril())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, length, width = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        shape = (batch, length, self.heads, width // self.heads)
        q, k, v = (t.reshape(shape).transpose(1, 2) for t in (q, k, v))
        scores = (q @ k.transpose(-2, -1)) / (width // self.heads) ** 0.5
        scores = scores.masked_fill(~self.mask[:length, :length], float("-inf"))
        attention = scores.softmax(dim=-1) @ v
        return self.proj(attention.transpose(1, 2).reshape(batch, length, width))  # type: ignore[no-any-return]


class GPT2Block(nn.Module):
    """GPT-2 block: pre-norm causal attention and a 4x GELU (tanh) MLP, both residual."""

    def __init__(self, width: int, heads: int, length: int) -> None:
        super().__init__()
        self.norm1 = nn.LayerNorm(width)
        self.attention = CausalSelfAttention(width, heads, length)
        self.norm2 = nn.LayerNorm(width)
        self.up = nn.Linear(width, 4 * width)
        self.down = nn.Linear(4 * width, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attention(self.norm1(x))
        hidden = nn.functional.gelu(self.up(self.norm2(x)), approximate="tanh")
        return x + self.down(hidden)  # type: ignore[no-any-return]


class GPT2(nn.Module):
    """A GPT-2-style decoder: learned positions, ``depth`` blocks, final norm, tied-size head.

    GPT-2 XL has 48 blocks of width 1600; we keep the depth and the width
    ratios (4x MLP, 64-wide heads become ``width // heads``) and shrink width.
    """

    def __init__(self, width: int, heads: int, depth: int, length: int, vocabulary: int) -> None:
        super().__init__()
        self.position = nn.Parameter(torch.randn(length, width) * 0.02)
        self.blocks = nn.Sequential(*(GPT2Block(width, heads, length) for _ in range(depth)))
        self.norm = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocabulary, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.position[: x.shape[1]]
        return self.head(self.norm(self.blocks(x)))  # type: ignore[no-any-return]


class RMSNorm(nn.Module):
    """Root-mean-square layer norm (LLaMA): ``x / sqrt(mean(x**2) + eps) * g``."""

    def __init__(self, width: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.eps = eps
        self.gain = nn.Parameter(torch.ones(width))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.gain


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    """``(x1, x2) -> (-x2, x1)`` over the last dimension's halves (rotary embeddings)."""
    first, second = x.chunk(2, dim=-1)
    return torch.cat((-second, first), dim=-1)


class GroupedQueryAttention(nn.Module):
    """LLaMA attention: rotary embeddings on q and k, ``kv_heads`` shared by the query heads."""

    cos: torch.Tensor
    sin: torch.Tensor

    def __init__(self, width: int, heads: int, kv_heads: int, length: int) -> None:
        super().__init__()
        self.heads, self.kv_heads, self.head_width = heads, kv_heads, width // heads
        self.q = nn.Linear(width, width, bias=False)
        self.k = nn.Linear(width, kv_heads * self.head_width, bias=False)
        self.v = nn.Linear(width, kv_heads * self.head_width, bias=False)
        self.o = nn.Linear(width, width, bias=False)
        inverse = 1.0 / 10000 ** (torch.arange(0, self.head_width, 2) / self.head_width)
        angles = torch.outer(torch.arange(length, dtype=torch.float32), inverse)
        angles = torch.cat((angles, angles), dim=-1)
        self.register_buffer("cos", angles.cos())
        self.register_buffer("sin", angles.sin())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, length, width = x.shape
        q = self.q(x).reshape(batch, length, self.heads, self.head_width).transpose(1, 2)
        kv_shape = (batch, length, self.kv_heads, self.head_width)
        k = self.k(x).reshape(kv_shape).transpose(1, 2)
        v = self.v(x).reshape(kv_shape).transpose(1, 2)
        cos, sin = self.cos[:length], self.sin[:length]
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        group = self.heads // self.kv_heads
        k, v = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
        attention = nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.o(attention.transpose(1, 2).reshape(batch, length, width))  # type: ignore[no-any-return]


class SwiGLU(nn.Module):
    """LLaMA MLP: ``down(silu(gate(x)) * up(x))``."""

    def __init__(self, width: int, hidden: int) -> None:
        super().__init__()
        self.gate = nn.Linear(width, hidden, bias=False)
        self.up = nn.Linear(width, hidden, bias=False)
        self.down = nn.Linear(hidden, width, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down(nn.functional.silu(self.gate(x)) * self.up(x))  # type: ignore[no-any-return]


class PreNormBlock(nn.Module):
    """A pre-RMSNorm decoder block: ``x + attention(norm1(x))``, then ``x + mlp(norm2(x))``.

    LLaMA and Mixtral blocks are this wiring with grouped-query attention;
    they differ only in the MLP (SwiGLU, or a mixture of SwiGLU experts).
    """

    def __init__(self, width: int, attention: nn.Module, mlp: nn.Module) -> None:
        super().__init__()
        self.norm1 = RMSNorm(width)
        self.attention = attention
        self.norm2 = RMSNorm(width)
        self.mlp = mlp

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attention(self.norm1(x))
        return x + self.mlp(self.norm2(x))  # type: ignore[no-any-return]


class Decoder(nn.Module):
    """``depth`` pre-norm blocks, then a final RMSNorm (the LLaMA/Mixtral stack)."""

    def __init__(self, width: int, blocks: list[nn.Module]) -> None:
        super().__init__()
        self.blocks = nn.Sequential(*blocks)
        self.norm = RMSNorm(width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(self.blocks(x))  # type: ignore[no-any-return]


def llama(width: int, heads: int, kv_heads: int, hidden: int, depth: int, length: int) -> Decoder:
    """A LLaMA-style decoder: RMSNorm, SwiGLU, rotary embeddings, grouped-query attention.

    LLaMA-2 70B has 80 blocks, 64 query heads sharing 8 key/value heads and an
    MLP 3.5x wide; we keep the depth and the ratios and shrink the width.
    """
    blocks: list[nn.Module] = [
        PreNormBlock(
            width, GroupedQueryAttention(width, heads, kv_heads, length), SwiGLU(width, hidden)
        )
        for _ in range(depth)
    ]
    return Decoder(width, blocks)


class VisionTransformer(nn.Module):
    """A ViT: patch embedding (strided conv), class token, positions, pre-norm blocks.

    ViT-L/16 has 24 blocks; we keep the depth, the 4x MLP and 16x16 patches
    become 8x8 on a 32x32 image.
    """

    def __init__(self, width: int, heads: int, depth: int, image: int, patch: int) -> None:
        super().__init__()
        tokens = (image // patch) ** 2 + 1
        self.embed = nn.Conv2d(3, width, patch, stride=patch)
        self.cls = nn.Parameter(torch.zeros(1, 1, width))
        self.position = nn.Parameter(torch.randn(1, tokens, width) * 0.02)
        self.blocks = nn.Sequential(*(Block(width, heads) for _ in range(depth)))
        self.norm = nn.LayerNorm(width)
        self.head = nn.Linear(width, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        patches = self.embed(x).flatten(2).transpose(1, 2)
        cls = self.cls.expand(x.shape[0], -1, -1)
        tokens = torch.cat((cls, patches), dim=1) + self.position
        return self.head(self.norm(self.blocks(tokens))[:, 0])  # type: ignore[no-any-return]


class Bottleneck(nn.Module):
    """ResNet bottleneck: 1x1, 3x3 (strided), 1x1 convs with batch norm, projected shortcut."""

    def __init__(self, inputs: int, width: int, stride: int) -> None:
        super().__init__()
        outputs = 4 * width
        self.body = nn.Sequential(
            nn.Conv2d(inputs, width, 1, bias=False),
            nn.BatchNorm2d(width),
            nn.ReLU(),
            nn.Conv2d(width, width, 3, stride=stride, padding=1, bias=False),
            nn.BatchNorm2d(width),
            nn.ReLU(),
            nn.Conv2d(width, outputs, 1, bias=False),
            nn.BatchNorm2d(outputs),
        )
        self.shortcut: nn.Module = nn.Identity()
        if stride != 1 or inputs != outputs:
            self.shortcut = nn.Sequential(
                nn.Conv2d(inputs, outputs, 1, stride=stride, bias=False), nn.BatchNorm2d(outputs)
            )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return nn.functional.relu(self.body(x) + self.shortcut(x))


class ResNet(nn.Module):
    """A ResNet of bottleneck stages (ResNet-101: 3, 4, 23, 3 blocks) with batch norm.

    Stage widths ``base * (1, 2, 4, 8)`` as in the paper, with a small ``base``.
    """

    def __init__(self, base: int, stages: tuple[int, ...]) -> None:
        super().__init__()
        layers: list[nn.Module] = [
            nn.Conv2d(3, base, 3, padding=1, bias=False),
            nn.BatchNorm2d(base),
            nn.ReLU(),
        ]
        inputs = base
        for stage, blocks in enumerate(stages):
            width = base * 2**stage
            for block in range(blocks):
                layers.append(Bottleneck(inputs, width, 2 if block == 0 and stage > 0 else 1))
                inputs = 4 * width
        self.features = nn.Sequential(*layers)
        self.head = nn.Linear(inputs, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x).mean(dim=(2, 3)))  # type: ignore[no-any-return]


class MixtureOfExperts(nn.Module):
    """A sparse MoE MLP (Mixtral): a router picks the top-k of ``experts`` SwiGLU experts per token.

    The routing is written densely (every expert runs on every token and is
    weighted by its gate, zero unless chosen), the form that compiles into
    one static graph; the gates are the renormalized top-k router softmax.
    """

    def __init__(self, width: int, hidden: int, experts: int, top: int) -> None:
        super().__init__()
        self.top = top
        self.router = nn.Linear(width, experts, bias=False)
        self.experts = nn.ModuleList(SwiGLU(width, hidden) for _ in range(experts))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        probabilities = self.router(x).softmax(dim=-1)
        weights, chosen = probabilities.topk(self.top, dim=-1)
        weights = weights / weights.sum(dim=-1, keepdim=True)
        gates = torch.zeros_like(probabilities).scatter(-1, chosen, weights)
        out = torch.zeros_like(x)
        for index, expert in enumerate(self.experts):
            out = out + gates[..., index : index + 1] * expert(x)
        return out


def mixtral(width: int, heads: int, kv_heads: int, hidden: int, depth: int, length: int) -> Decoder:
    """A Mixtral-style decoder: ``depth`` MoE blocks (Mixtral 8x7B: 32 blocks, 8 experts, top 2)."""
    blocks: list[nn.Module] = [
        PreNormBlock(
            width,
            GroupedQueryAttention(width, heads, kv_heads, length),
            MixtureOfExperts(width, hidden, experts=8, top=2),
        )
        for _ in range(depth)
    ]
    return Decoder(width, blocks)


SMALL_ZOO: tuple[ModelSpec, ...] = (
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
"""Small graphs of many shapes: weights of tens to hundreds of units."""

LENGTH = 32
"""Sequence length of the real-scale language models (shrunk, like their width)."""

REAL_SCALE_ZOO: tuple[ModelSpec, ...] = (
    ModelSpec(
        "gpt2_48",
        partial(GPT2, width=64, heads=4, depth=48, length=LENGTH, vocabulary=256),
        ((2, LENGTH, 64),),
    ),
    ModelSpec(
        "llama_32",
        partial(llama, width=64, heads=8, kv_heads=2, hidden=224, depth=32, length=LENGTH),
        ((2, LENGTH, 64),),
    ),
    ModelSpec(
        "mixtral_32",
        partial(mixtral, width=32, heads=4, kv_heads=1, hidden=112, depth=32, length=LENGTH),
        ((2, LENGTH, 32),),
    ),
    ModelSpec(
        "vit_24",
        partial(VisionTransformer, width=64, heads=4, depth=24, image=32, patch=8),
        ((4, 3, 32, 32),),
    ),
    ModelSpec("resnet_101", partial(ResNet, base=8, stages=(3, 4, 23, 3)), ((4, 3, 32, 32),)),
)
"""Real depth at shrunk width and sequence length: hundreds of items of a few units.

``gpt2_48``: GPT-2 XL's 48 blocks; ``llama_32``: LLaMA-3 8B's 32 blocks, 4
query heads per key/value head, a 3.5x SwiGLU MLP; ``mixtral_32``: Mixtral
8x7B's 32 blocks of 8 experts, top 2; ``vit_24``: ViT-L's 24 blocks;
``resnet_101``: ResNet-101's bottleneck stages (3, 4, 23, 3).
"""

ZOO: tuple[ModelSpec, ...] = SMALL_ZOO + REAL_SCALE_ZOO
"""Every model the golden capture compiles, by fixture name."""


def by_name(name: str) -> ModelSpec:
    """The zoo entry called ``name``."""
    for spec in ZOO:
        if spec.name == name:
            return spec
    raise KeyError(f"no model {name!r} in the zoo; known: {[spec.name for spec in ZOO]}")
