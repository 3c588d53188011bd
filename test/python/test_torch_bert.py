"""vnm.torch.lower on a stock Hugging Face BERT (transformers' BertModel,
a small random configuration: no download): every linear layer sparse in
eager and sdpa attention, at batch 1 and above, with the attention mask as a
keyword input and dynamic batch and sequence sizes."""

import pytest

REASON = ("needs torch, torch-mlir and transformers from pip "
          "(scripts/setup.sh installs them)")
torch = pytest.importorskip("torch", reason=REASON)
pytest.importorskip("torch_mlir", reason=REASON)
transformers = pytest.importorskip("transformers", reason=REASON)
import vnm.torch as vt  # noqa: E402


def bert(attention):
    config = transformers.BertConfig(
        vocab_size=512, hidden_size=64, num_hidden_layers=2, num_attention_heads=2,
        intermediate_size=128, max_position_embeddings=64,
        attn_implementation=attention)
    torch.manual_seed(0)
    return transformers.BertModel(config).eval()


def linear_weights(model):
    return [name for name, module in model.named_modules()
            if isinstance(module, torch.nn.Linear) for name in [name + ".weight"]]


@pytest.mark.parametrize("attention", ["eager", "sdpa"])
@pytest.mark.parametrize("batch", [1, 3])
def test_every_linear_layer_is_sparse(attention, batch):
    model = bert(attention)
    names = linear_weights(model)
    assert len(names) == 2 * 6 + 1  # q, k, v, attention out, fc1, fc2; pooler
    ids = torch.randint(0, 512, (batch, 16))
    lowering = vt.lower(model, ids, example_kwargs={"attention_mask": torch.ones_like(ids)},
                        sparsity={name: "64:2:8" for name in names})
    assert lowering.ir.count("vnm.spmm") == len(names)
    # No layer accumulates into a zero tensor (the sdpa attention output at
    # batch > 1, flattened from a batch matmul, did: its kernel read C).
    spmm = [line for line in lowering.ir.splitlines() if "vnm.spmm" in line]
    assert not any(" acc(" in line for line in spmm)
    assert lowering.arguments[:2] == (None, None)  # input_ids, attention_mask
    # The module is left as it was: position_ids is still non-persistent.
    assert "embeddings.position_ids" not in model.state_dict()


def test_dynamic_batch_and_sequence():
    model = bert("sdpa")
    names = linear_weights(model)
    ids = torch.randint(0, 512, (2, 16))
    batch, tokens = torch.export.Dim("batch", max=64), torch.export.Dim("tokens", max=64)
    lowering = vt.lower(model, ids, sparsity={name: "64:2:8" for name in names},
                        dynamic_shapes=({0: batch, 1: tokens},))
    assert lowering.ir.count("vnm.spmm") == len(names)
    assert "%arg0: tensor<?x?xi64>" in lowering.ir


def test_dynamic_shapes_must_match_the_inputs():
    model = bert("eager")
    ids = torch.randint(0, 512, (1, 8))
    with pytest.raises(ValueError, match="dynamic_shapes has 2 entries for 1 inputs"):
        vt.lower(model, ids, sparsity={"pooler.dense.weight": "64:2:8"},
                 dynamic_shapes=(None, None))


def test_tied_weight_is_one_sparse_argument():
    """BertForMaskedLM's decoder shares its weight with the word embeddings:
    named by either name, it is one @main argument, read by the decoder's
    spmm and (decompressed) by the embedding lookup."""
    config = transformers.BertConfig(
        vocab_size=512, hidden_size=64, num_hidden_layers=1, num_attention_heads=2,
        intermediate_size=128, max_position_embeddings=64, attn_implementation="eager")
    torch.manual_seed(0)
    model = transformers.BertForMaskedLM(config).eval()
    decoder = "cls.predictions.decoder.weight"
    assert decoder not in dict(model.named_parameters())  # the tied alias
    ids = torch.randint(0, 512, (1, 8))
    lowering = vt.lower(model, ids, sparsity={decoder: "64:2:8"})
    assert lowering.weights == {"bert.embeddings.word_embeddings.weight": 1}
    assert lowering.ir.count("vnm.spmm") == 1
    assert "vnm.decompress %arg1" in lowering.ir
    with pytest.raises(ValueError, match="two formats"):
        vt.lower(model, ids, sparsity={decoder: "64:2:8",
                                       "bert.embeddings.word_embeddings.weight": "64:2:16"})
