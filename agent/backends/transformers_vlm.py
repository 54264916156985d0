"""A local vision-language model through transformers: Qwen2.5-VL and models sharing its
interface (UI-TARS, ShowUI, …), from a local folder or a hub name, on CPU or GPU.

The processor's own chat template and image processing are used, so the model sees exactly the
prompt layout and image tokens it was trained with.
"""

from __future__ import annotations

import io
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from clickwright.agent.backends.base import Backend, Message, ModelError, ModelTimeout, one_line
from clickwright.agent.screen_scaling import ImageLimits


class TransformersVLMBackend(Backend):
    name = "transformers"

    def __init__(self, model: str, *, device: str = "auto") -> None:
        # Decoding is greedy by default, so a retry would give the same answer: one try.
        super().__init__(model, tries=1)
        try:
            import torch
            import transformers
        except ImportError:
            raise ModelError(
                "the transformers backend needs torch and transformers",
                "pip install 'clickwright[torch]'",
            ) from None
        self._torch = torch
        if model.startswith(("/", ".", "~")) and not Path(model).expanduser().is_dir():
            raise ModelError(
                f"no model folder at {model}", "give the folder that holds config.json"
            )
        self.device = _pick_device(torch) if device == "auto" else device
        source = str(Path(model).expanduser()) if model.startswith("~") else model
        try:
            self.processor = transformers.AutoProcessor.from_pretrained(source)
            net = transformers.AutoModelForImageTextToText.from_pretrained(
                source, torch_dtype="auto"
            )
        except ValueError as error:  # transformers' word for "no such model class for this config"
            raise ModelError(
                f"{model} is not a vision-language model: {one_line(str(error), 100)}",
                "use a Qwen2.5-VL-family model (Qwen2.5-VL, UI-TARS, ShowUI) or another "
                "image-text-to-text model",
            ) from None
        except (OSError, ImportError) as error:
            hint = "give a local model folder, or a hub name already downloaded"
            if "torchvision" in str(error).lower():  # transformers>=4.52 Qwen-VL processors
                hint = "install torchvision built for your torch, or transformers<4.52"
            raise ModelError(f"cannot load {model}: {one_line(str(error), 120)}", hint) from None
        if not getattr(self.processor, "chat_template", None):
            raise ModelError(
                f"{model} has no chat template", "use the instruction-tuned variant of the model"
            )
        self.net = net.to(self.device).eval()
        self.image_limits = _image_limits(self.processor)

    def _send(
        self, messages: Sequence[Message], *, max_tokens: int, temperature: float, timeout: float
    ) -> tuple[str, int, int, str]:
        images: list[Image.Image] = []
        turns: list[dict[str, Any]] = []
        for message in messages:
            parts: list[dict[str, str]] = []
            for part in message.content:
                if isinstance(part, str):
                    parts.append({"type": "text", "text": part})
                else:
                    images.append(_pil_image(part))
                    parts.append({"type": "image"})
            turns.append({"role": message.role, "content": parts})
        prompt = self.processor.apply_chat_template(
            turns, add_generation_prompt=True, tokenize=False
        )
        inputs = self.processor(text=[prompt], images=images or None, return_tensors="pt")
        inputs = inputs.to(self.device)
        sampling = {"do_sample": True, "temperature": temperature} if temperature > 0 else {}
        sampling = sampling or {"do_sample": False}
        start = time.monotonic()
        try:
            with self._torch.inference_mode():
                output = self.net.generate(
                    **inputs,
                    max_new_tokens=max_tokens,
                    max_time=timeout,
                    **sampling,
                )
        except self._torch.OutOfMemoryError:
            raise ModelError(
                f"{self.model} ran out of memory on {self.device}",
                "use a smaller model, smaller screenshots, or --device cpu",
            ) from None
        if time.monotonic() - start >= timeout:
            raise ModelTimeout(
                f"{self.model} did not finish within {timeout:g} s on {self.device}",
                "raise --timeout, or use a GPU or a smaller model",
            )
        prompt_length = int(inputs["input_ids"].shape[1])
        new_tokens = output[0, prompt_length:]
        text = self.processor.decode(new_tokens, skip_special_tokens=True)
        return text, prompt_length, int(new_tokens.shape[0]), self.model


def _image_limits(processor: Any) -> ImageLimits:
    """The processor's own resize rule, so screenshots arrive at the size it would make."""
    images = getattr(processor, "image_processor", None)
    patch = getattr(images, "patch_size", None)
    merge = getattr(images, "merge_size", None)
    if not patch or not merge:
        return ImageLimits()
    size = images.size or {}
    max_pixels = getattr(images, "max_pixels", None) or size.get("longest_edge")
    min_pixels = getattr(images, "min_pixels", None) or size.get("shortest_edge")
    return ImageLimits(
        factor=patch * merge,
        max_pixels=max_pixels or ImageLimits.max_pixels,
        min_pixels=min_pixels or ImageLimits.min_pixels,
    )


def _pick_device(torch: Any) -> str:
    if torch.cuda.is_available():
        return "cuda"
    if torch.backends.mps.is_available():
        return "mps"
    return "cpu"


def _pil_image(image: np.ndarray | bytes) -> Image.Image:
    if isinstance(image, bytes):
        return Image.open(io.BytesIO(image)).convert("RGB")
    return Image.fromarray(image).convert("RGB")
