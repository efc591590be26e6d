"""Policy networks for sparse, structured observations (config ``network: {type: ...}``).

* :class:`EBagNet` (``ebag``): the first layer is an embedding bag, the sum of learned
  embeddings of the observation's nonzero entries weighted by their values (the same
  function as a dense first layer, computed from the ~190 nonzero entries of 2,221),
  then an MLP; actor and critic share the layers (``shared: true``) or have their own.
* :class:`EntityNet` (``entity``): the game's token groups (area, seat, pile ...,
  :mod:`art_gallery_env.core.structure`), each encoded by one shared linear layer plus a
  learned per-token embedding, flattened with the features no token reads into a shared
  MLP trunk with a policy and a value head. Actions with a pointer (Art Gallery's moves
  and bids) add a logit computed from the token they point to (the move's destination
  area) and the trunk: ``out . act(dest W_d + h W_h + e_action)``.

Both expose ``forward(x) -> (logits, value)``, ``logits(x)`` and ``value(x)``, and
``export_tensors()``, the tensors of the weights-only file
(:mod:`art_gallery_env.agents.policy_entity` plays them in numpy).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from art_gallery_env.core.structure import ActionPointer, NetworkStructure, TokenGroup

ACTIVATIONS = {"tanh": torch.tanh, "relu": torch.relu}


class SparseLinear(nn.Module):
    """``x @ W + b`` from the nonzero entries of ``x`` only (an embedding bag)."""

    def __init__(self, in_features: int, out_features: int) -> None:
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.embedding = nn.Parameter(torch.empty(in_features, out_features))
        self.bias = nn.Parameter(torch.zeros(out_features))
        nn.init.orthogonal_(self.embedding.data.T, gain=float(np.sqrt(2)))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        rows, cols = x.nonzero(as_tuple=True)
        counts = torch.bincount(rows, minlength=x.shape[0])
        offsets = torch.cumsum(counts, 0) - counts
        summed = F.embedding_bag(
            cols, self.embedding, offsets, mode="sum", per_sample_weights=x[rows, cols]
        )
        return summed + self.bias


def _linear(inputs: int, outputs: int, gain: float, bias: bool = True) -> nn.Linear:
    layer = nn.Linear(inputs, outputs, bias=bias)
    nn.init.orthogonal_(layer.weight, gain=gain)
    if bias:
        nn.init.zeros_(layer.bias)
    return layer


def _mlp(sizes: Sequence[int]) -> nn.ModuleList:
    gain = float(np.sqrt(2))
    return nn.ModuleList(_linear(a, b, gain) for a, b in zip(sizes[:-1], sizes[1:], strict=True))


class EBagNet(nn.Module):
    """An embedding-bag first layer, then an MLP; shared or separate actor and critic."""

    kind = "ebag"

    def __init__(
        self,
        obs_size: int,
        num_actions: int,
        hidden_sizes: Sequence[int] = (256, 256),
        activation: str = "tanh",
        shared: bool = True,
    ) -> None:
        super().__init__()
        self.hidden_sizes, self.activation, self.shared = list(hidden_sizes), activation, shared
        self.act = ACTIVATIONS[activation]
        self.actor_bag = SparseLinear(obs_size, hidden_sizes[0])
        self.actor_layers = _mlp(hidden_sizes)
        if not shared:
            self.critic_bag = SparseLinear(obs_size, hidden_sizes[0])
            self.critic_layers = _mlp(hidden_sizes)
        self.pi = _linear(hidden_sizes[-1], num_actions, 0.01)
        self.vf = _linear(hidden_sizes[-1], 1, 1.0)

    def _body(self, bag: SparseLinear, layers: nn.ModuleList, x: torch.Tensor) -> torch.Tensor:
        h = self.act(bag(x))
        for layer in layers:
            h = self.act(layer(h))
        return h

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self._body(self.actor_bag, self.actor_layers, x)
        if self.shared:
            return self.pi(h), self.vf(h)
        return self.pi(h), self.vf(self._body(self.critic_bag, self.critic_layers, x))

    def logits(self, x: torch.Tensor) -> torch.Tensor:
        return self.pi(self._body(self.actor_bag, self.actor_layers, x))

    def value(self, x: torch.Tensor) -> torch.Tensor:
        if self.shared:
            return self.vf(self._body(self.actor_bag, self.actor_layers, x))
        return self.vf(self._body(self.critic_bag, self.critic_layers, x))

    def _linears(self, bag: SparseLinear, layers: nn.ModuleList, head: nn.Linear) -> list:
        linears = [(bag.embedding.T, bag.bias)]
        linears += [(layer.weight, layer.bias) for layer in layers]
        linears.append((head.weight, head.bias))
        return [(_numpy(w), _numpy(b)) for w, b in linears]

    def export_tensors(self) -> dict[str, np.ndarray]:
        """The actor as the MLP format's ``layers.{i}`` (the embedding bag is layer 0)."""
        out = {}
        for i, (w, b) in enumerate(self._linears(self.actor_bag, self.actor_layers, self.pi)):
            out[f"layers.{i}.weight"], out[f"layers.{i}.bias"] = w, b
        return out

    def value_layers(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """The critic as (weight, bias) pairs: obs -> value (the MLP format's value head)."""
        if self.shared:
            return self._linears(self.actor_bag, self.actor_layers, self.vf)
        return self._linears(self.critic_bag, self.critic_layers, self.vf)

    def header(self) -> dict[str, Any]:
        """The MLP format's header entries; ``network`` records the architecture."""
        network = {"type": "ebag", "hidden_sizes": self.hidden_sizes, "shared": self.shared}
        return {
            "hidden_sizes": self.hidden_sizes,
            "activation": self.activation,
            "network": network,
        }


def _numpy(t: torch.Tensor) -> np.ndarray:
    """A C-ordered float32 copy that owns its memory (a product with a view of torch's
    memory measured 100x slower in numpy)."""
    return np.array(t.detach().cpu().numpy(), dtype=np.float32, order="C", copy=True)


class EntityNet(nn.Module):
    """Token encoders, a shared trunk, policy/value heads and the action pointer."""

    kind = "entity"

    def __init__(
        self,
        structure: NetworkStructure,
        token_dim: int = 32,
        hidden_sizes: Sequence[int] = (256,),
        pointer_dim: int = 64,
        activation: str = "tanh",
        use_pointer: bool = True,
    ) -> None:
        super().__init__()
        self.hidden_sizes, self.activation = list(hidden_sizes), activation
        self.token_dim, self.pointer_dim = token_dim, pointer_dim
        self.act = ACTIVATIONS[activation]
        size = structure.observation_size
        self.groups = [g.name for g in structure.groups]
        self.encoders = nn.ModuleDict()
        self.positions = nn.ParameterDict()
        width = 0
        for group in structure.groups:
            index = np.where(group.index < 0, size, group.index)  # -1 reads the padded 0
            self.register_buffer(f"index_{group.name}", torch.as_tensor(index, dtype=torch.long))
            tokens, features = group.index.shape
            self.encoders[group.name] = _linear(features, token_dim, float(np.sqrt(2)))
            self.positions[group.name] = nn.Parameter(0.1 * torch.randn(tokens, token_dim))
            width += tokens * token_dim
        rest = structure.rest()
        self.register_buffer("rest", torch.as_tensor(rest, dtype=torch.long))
        self.trunk = _mlp([width + len(rest), *hidden_sizes])
        self.pi = _linear(hidden_sizes[-1], structure.num_actions, 0.01)
        self.vf = _linear(hidden_sizes[-1], 1, 1.0)
        self.pointer_group = None
        if use_pointer and structure.pointer is not None:
            self._build_pointer(structure, hidden_sizes[-1])
        self.observation_size = size
        self._build_gathers()
        self.register_load_state_dict_post_hook(EntityNet._after_load)

    @staticmethod
    def _after_load(module: EntityNet, _keys: Any) -> None:
        module._build_gathers()  # the loaded index buffers may differ from the structure's

    def _build_pointer(self, structure: NetworkStructure, hidden: int) -> None:
        p = structure.pointer
        assert p is not None
        self.pointer_group = p.group
        tokens = structure.groups[self.groups.index(p.group)].index.shape[0]
        n1, n2, k = p.table.shape
        select = np.zeros((n1 * n2, k, tokens), dtype=np.float32)
        rows, actions = np.nonzero(p.table.reshape(n1 * n2, k) >= 0)
        select[rows, actions, p.table.reshape(n1 * n2, k)[rows, actions]] = 1.0
        for name, value in (
            ("pointer_actions", torch.as_tensor(p.actions, dtype=torch.long)),
            ("pointer_context_a", torch.as_tensor(p.context_a, dtype=torch.long)),
            ("pointer_context_b", torch.as_tensor(p.context_b, dtype=torch.long)),
            ("pointer_select", torch.as_tensor(select.reshape(n1 * n2, k * tokens))),
        ):
            self.register_buffer(name, value)
        # the same lookup as an index (token + 1; 0: none), for a gather instead of a
        # batched product with the one-hot selection (training speed; not exported)
        index = torch.as_tensor(p.table.reshape(n1 * n2, k) + 1.0, dtype=torch.float32)
        self.register_buffer("pointer_index", index, persistent=False)
        self.pointer_tokens = tokens
        self.pointer_dest = _linear(self.token_dim, self.pointer_dim, 1.0, bias=False)
        self.pointer_hidden = _linear(hidden, self.pointer_dim, 1.0, bias=False)
        self.pointer_action = nn.Parameter(torch.zeros(k, self.pointer_dim))
        self.pointer_out = _linear(self.pointer_dim, 1, 0.01, bias=False)

    def _build_gathers(self) -> None:
        """The training path's column lists, rebuilt from the index buffers (also after a
        state dict is loaded): per group its fields as one flat ``index_select`` (an entry
        of -1 reads column 0, then ``absent_<group>`` sets it to 0), and the columns read
        raw (``rest``, the pointer's context) as one more. Not exported (not persistent).

        ``x[:, index]`` with a 2-D index and a padded copy of ``x`` cost 16 ms per 1,024
        rows here, against 7 ms for ``index_select`` on ``x`` itself (docs/vector.md)."""
        size = self.observation_size
        for name in self.groups:
            index = getattr(self, f"index_{name}").flatten()
            valid = index < size
            flat = torch.where(valid, index, torch.zeros_like(index))
            self.register_buffer(f"gather_{name}", flat, persistent=False)
            self.register_buffer(f"absent_{name}", torch.nonzero(~valid)[:, 0], persistent=False)
        raw = [self.rest]
        if self.pointer_group is not None:
            raw += [self.pointer_context_a, self.pointer_context_b]
        self._raw_sizes = [len(r) for r in raw]
        self.register_buffer("gather_raw", torch.cat(raw), persistent=False)

    def _tokens(self, x: torch.Tensor) -> dict[str, torch.Tensor]:
        tokens = {}
        for name in self.groups:
            shape = getattr(self, f"index_{name}").shape
            fields = x.index_select(1, getattr(self, f"gather_{name}"))
            fields = fields.index_fill_(1, getattr(self, f"absent_{name}"), 0.0).view(-1, *shape)
            tokens[name] = self.act(self.encoders[name](fields) + self.positions[name])
        return tokens

    def _trunk(self, x: torch.Tensor) -> tuple[torch.Tensor, dict[str, torch.Tensor], list]:
        tokens = self._tokens(x)
        raw = list(x.index_select(1, self.gather_raw).split(self._raw_sizes, 1))
        h = torch.cat([tokens[name].flatten(1) for name in self.groups] + [raw[0]], 1)
        for layer in self.trunk:
            h = self.act(layer(h))
        return h, tokens, raw[1:]

    def _logits(self, h: torch.Tensor, tokens: dict, context: list) -> torch.Tensor:
        logits = self.pi(h)
        if self.pointer_group is None:
            return logits
        a, b = context
        pairs = a.unsqueeze(2) * b.unsqueeze(1)
        index = (pairs.flatten(1) @ self.pointer_index).round().long()  # (B, k), 0: none
        # the destination's projection before the gather (the same products: a token's
        # row is projected once, not once per action that points at it)
        dest = F.pad(self.pointer_dest(tokens[self.pointer_group]), (0, 0, 1, 0))
        rows, slots, width = dest.shape  # slot 0 is the zero "none"
        index = index + torch.arange(0, rows * slots, slots, device=index.device).unsqueeze(1)
        # whole rows by index_select (0.3 ms per 1,024 observations, gather 3 ms)
        dest = dest.reshape(rows * slots, width).index_select(0, index.flatten())
        dest = dest.view(rows, -1, width)
        q = self.act(dest + self.pointer_hidden(h).unsqueeze(1) + self.pointer_action)
        return logits.index_add(1, self.pointer_actions, self.pointer_out(q).squeeze(-1))

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h, tokens, context = self._trunk(x)
        return self._logits(h, tokens, context), self.vf(h)

    def logits(self, x: torch.Tensor) -> torch.Tensor:
        return self._logits(*self._trunk(x))

    def value(self, x: torch.Tensor) -> torch.Tensor:
        return self.vf(self._trunk(x)[0])

    def export_tensors(self) -> dict[str, np.ndarray]:
        """Every parameter and index buffer, by its state-dict name (see policy_entity)."""
        return {
            name: np.array(t.detach().cpu().numpy(), order="C", copy=True)
            for name, t in self.state_dict().items()
        }

    @classmethod
    def from_tensors(cls, tensors: Mapping[str, np.ndarray], header: Mapping[str, Any]) -> Any:
        """The torch net of an entity checkpoint's tensors and header (the structure is
        read back from its index tensors, so no game module is needed)."""
        net = dict(header["network"])
        size = int(header["obs_size"])
        groups = tuple(
            TokenGroup(g, np.where(tensors[f"index_{g}"] >= size, -1, tensors[f"index_{g}"]))
            for g in net["groups"]
        )
        pointer = None
        if net.get("pointer_group") is not None:
            a, b = tensors["pointer_context_a"], tensors["pointer_context_b"]
            k = len(tensors["pointer_actions"])
            select = tensors["pointer_select"].reshape(len(a), len(b), k, -1)
            table = np.where(select.max(-1) > 0, select.argmax(-1), -1)
            pointer = ActionPointer(net["pointer_group"], tensors["pointer_actions"], a, b, table)
        structure = NetworkStructure(size, int(header["num_actions"]), groups, pointer)
        module = cls(
            structure,
            net["token_dim"],
            net["hidden_sizes"],
            net["pointer_dim"],
            header["activation"],
            use_pointer=pointer is not None,
        )
        module.load_state_dict({k: torch.as_tensor(np.asarray(v)) for k, v in tensors.items()})
        return module.eval()

    def value_layers(self) -> None:
        """No separate critic layers: the value head is part of the exported tensors."""
        return None

    def header(self) -> dict[str, Any]:
        """The header's entries; ``network`` is what the numpy inference rebuilds."""
        network = {
            "type": "entity",
            "token_dim": self.token_dim,
            "hidden_sizes": self.hidden_sizes,
            "pointer_dim": self.pointer_dim,
            "groups": self.groups,
            "pointer_group": self.pointer_group,
        }
        return {"activation": self.activation, "network": network}
