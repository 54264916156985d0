"""The transformers backend on a tiny randomly initialised Qwen2.5-VL, built and saved here (no
weights can be downloaded), then loaded by path through the real loading, chat-template,
image-processing and generation code."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from clickwright.agent.backends import Message, ModelError
from clickwright.agent.backends.transformers_vlm import TransformersVLMBackend

torch = pytest.importorskip("torch", reason="the torch extra is not installed")
transformers = pytest.importorskip("transformers", reason="the torch extra is not installed")

SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|vision_start|>", "<|vision_end|>"]
SPECIAL += ["<|image_pad|>", "<|video_pad|>"]
# Qwen2-VL's chat template, trimmed to what a GUI agent sends (text and images).
CHAT_TEMPLATE = (
    "{% for message in messages %}{% if loop.first and message['role'] != 'system' %}"
    "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n{% endif %}"
    "<|im_start|>{{ message['role'] }}\n{% for content in message['content'] %}"
    "{% if content['type'] == 'image' %}<|vision_start|><|image_pad|><|vision_end|>"
    "{% elif content['type'] == 'text' %}{{ content['text'] }}{% endif %}{% endfor %}"
    "<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


@pytest.fixture(scope="module")
def tiny_qwen(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Qwen2.5-VL with two 32-wide layers in each tower, a byte-level tokenizer and the real
    processor classes, saved as a model folder."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    alphabet = sorted(pre_tokenizers.ByteLevel.alphabet())  # one token per byte, no merges
    byte_level = Tokenizer(models.BPE(vocab={c: i for i, c in enumerate(alphabet)}, merges=[]))
    byte_level.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    byte_level.decoder = decoders.ByteLevel()
    tokenizer = transformers.Qwen2TokenizerFast(
        tokenizer_object=byte_level,
        unk_token=None,
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        additional_special_tokens=SPECIAL,
    )
    processor = transformers.Qwen2_5_VLProcessor(
        image_processor=transformers.Qwen2VLImageProcessor(
            min_pixels=56 * 56, max_pixels=112 * 112
        ),
        tokenizer=tokenizer,
        chat_template=CHAT_TEMPLATE,
    )
    token = tokenizer.convert_tokens_to_ids
    config = transformers.Qwen2_5_VLConfig(
        vocab_size=len(tokenizer),
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=1024,
        rope_scaling={"type": "mrope", "mrope_section": [2, 3, 3]},  # sums to head_dim / 2
        bos_token_id=token("<|endoftext|>"),
        eos_token_id=token("<|im_end|>"),
        pad_token_id=token("<|endoftext|>"),
        image_token_id=token("<|image_pad|>"),
        video_token_id=token("<|video_pad|>"),
        vision_start_token_id=token("<|vision_start|>"),
        vision_end_token_id=token("<|vision_end|>"),
        vision_config={
            "depth": 2,
            "hidden_size": 32,
            "intermediate_size": 64,
            "num_heads": 2,
            "out_hidden_size": 32,
            "fullatt_block_indexes": [1],
        },
    )
    torch.manual_seed(0)
    folder = tmp_path_factory.mktemp("tiny-qwen2.5-vl")
    transformers.Qwen2_5_VLForConditionalGeneration(config).save_pretrained(folder)
    processor.save_pretrained(folder)
    return folder


@pytest.mark.slow
def test_chat_with_an_image_through_the_real_model_path(tiny_qwen: Path):
    backend = TransformersVLMBackend(str(tiny_qwen), device="cpu")
    assert type(backend.net).__name__ == "Qwen2_5_VLForConditionalGeneration"
    screenshot = np.random.default_rng(0).integers(0, 255, (90, 120, 3), dtype=np.uint8)
    messages = [
        Message("system", ["Answer with click(x, y)."]),
        Message("user", ["Click Save.", screenshot]),
    ]
    result = backend.chat(messages, max_tokens=6, timeout=60)
    # 90x120 -> 84x112 pixels -> 6x8 patches of 14 -> 12 image tokens after the 2x2 merge
    prompt = "<|im_start|>system\nAnswer with click(x, y).<|im_end|>\n<|im_start|>user\n"
    prompt += "<|vision_start|>" + "<|image_pad|>" * 12 + "<|vision_end|>Click Save.<|im_end|>\n"
    prompt += "<|im_start|>assistant\n"
    expected_prompt_tokens = len(backend.processor.tokenizer(prompt)["input_ids"])
    assert result.input_tokens == expected_prompt_tokens
    assert 1 <= result.output_tokens <= 6
    assert isinstance(result.text, str) and result.model == str(tiny_qwen)
    again = backend.chat(messages, max_tokens=6, timeout=60)
    assert again.text == result.text  # greedy: the same screen gets the same answer


@pytest.mark.slow
def test_png_bytes_images_and_text_only_prompts(tiny_qwen: Path):
    import cv2

    backend = TransformersVLMBackend(str(tiny_qwen), device="cpu")
    ok, png = cv2.imencode(".png", np.full((56, 56, 3), 200, np.uint8))
    with_png = backend.chat([Message("user", ["Where?", png.tobytes()])], max_tokens=2, timeout=60)
    text_only = backend.chat([Message("user", ["Hello"])], max_tokens=2, timeout=60)
    assert with_png.input_tokens > text_only.input_tokens > 0


def test_loading_errors_are_one_line(tmp_path: Path):
    with pytest.raises(ModelError, match=r"no model folder at /nonexistent/model — give"):
        TransformersVLMBackend("/nonexistent/model", device="cpu")
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "bert", "vocab_size": 10}))
    with pytest.raises(ModelError) as caught:
        TransformersVLMBackend(str(tmp_path), device="cpu")
    assert "\n" not in str(caught.value)
    assert f"{tmp_path} is not a vision-language model" in str(caught.value)


@pytest.mark.slow
def test_the_cli_runs_a_local_model_as_actor_and_ends_cleanly_on_its_nonsense(
    tiny_qwen: Path, tmp_path: Path
):
    """Random weights answer random text: the real loop must send the screenshot at the
    processor's own size, retry, and end with a reason, exit 1."""
    import os

    from tests.conftest import run_cli

    (tmp_path / "none.toml").write_text("")
    result = run_cli(
        "run", "Register Ada", "--virtual", "--backend", "transformers",
        "--model", str(tiny_qwen), "--role", "planner.backend=offline",
        "--runs-dir", str(tmp_path), "--json",
        env={**os.environ, "CLICKWRIGHT_CONFIG": str(tmp_path / "none.toml")},
    )  # fmt: skip
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert result.returncode == 1, result.stdout + result.stderr
    assert "the actor" in summary["reason"] and "no usable answer in 3 tries" in summary["reason"]
    assert summary["usage"]["calls"] == 3 and summary["usage"]["cost"] == 0
    run = json.loads((Path(summary["run_dir"]) / "run.json").read_text())
    assert run["roles"]["actor"] == f"transformers:{tiny_qwen} (qwen-vl)"
    assert run["roles"]["planner"] == "offline"
    calls = (Path(summary["run_dir"]) / "model_calls.jsonl").read_text().splitlines()
    prompt = json.loads(calls[0])
    assert "[image 140x84]" in prompt["prompt"]  # 1280x800 snapped to 28s within 112*112 pixels
