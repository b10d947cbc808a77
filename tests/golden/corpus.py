"""The tokenizer test corpus: at least 500 strings covering what real inputs contain. Shared by
make_golden.py (reference token ids) and kept as tests/golden/tokenizer_corpus.json."""
import json
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]

HANDWRITTEN = [
    "", " ", "  ", "\t", "\n", "\r\n", " \n \n ", "a", "A", "hello", "Hello world",
    "Hello, world!", "hello   world", "hello\tworld", "hello\nworld", "line one\n\nline three",
    "trailing space ", " leading space", "  both  ", "tabs\t\tand\t spaces", "\t\tindented",
    "don't", "I'm", "we're", "they've", "you'll", "he'd", "it's", "DON'T", "I'M SURE",
    "rock'n'roll", "'quoted'", '"double quoted"', "O'Neil's", "can't won't shan't",
    "!!!", "???", "...", "?!?!", "---", "***", "!!!???...", "(parenthesised)", "[brackets]",
    "{braces}", "<angle>", "a,b;c:d", "semi;colon", "e-mail", "well-known", "co-operate",
    "hash#tag", "@mention", "$100", "€50", "£20", "¥1000", "50%", "3+4=7", "a*b/c", "x^2",
    "snake_case_name", "camelCaseName", "PascalCaseName", "UPPERCASE", "MiXeD cAsE",
    "http://example.com/path?q=1&r=2", "user@example.org", "C:\\path\\to\\file",
    "0", "7", "42", "123", "1234", "12345", "1234567890", "3.14159", "1,000,000", "2026-11-29",
    "12:30:45", "v1.2.3", "+49 30 1234567", "0x1F", "1e-5", "-273.15", "007", "٣٤٥", "１２３",
    "café", "naïve", "résumé", "façade", "crème brûlée", "Übergröße", "Straße", "Äpfel",
    "Öl und Ärger", "ﬁnance", "Ångström", "Łódź", "İstanbul", "ǅ", "ΣΊΣΥΦΟΣ", "Ελληνικά",
    "Привет, мир!", "Ça va? Très bien.", "Größenordnung", "Schönheitsoperation",
    "Donaudampfschifffahrtsgesellschaftskapitän", "L'été dernier, à Paris", "Où est la gare ?",
    "안녕하세요", "안녕하세요, 세계!", "한국어 문장입니다.", "감사합니다 ^^", "ㅋㅋㅋ",
    "こんにちは", "日本語のテキストです。", "カタカナとひらがな", "東京タワー", "ｶﾀｶﾅ",
    "你好，世界", "中文文本测试。", "我喜欢这家餐厅", "繁體中文", "漢字",
    "مرحبا بالعالم", "العربية", "שלום עולם", "नमस्ते दुनिया", "สวัสดีครับ", "Tiếng Việt",
    "😀", "👍🏽", "👨‍👩‍👧‍👦", "🏳️‍🌈", "❤️", "🇰🇷🇩🇪", "I ❤ NY", "great!!! 😍😍😍", "✓ done",
    "a\u00a0b", "zero\u200bwidth", "soft\u00adhyphen", "e\u0301", "\u2028sep", "full\u3000width",
    "control\u0007bell", "null\u0000byte", "\ufffd replacement", "bom\ufeffhere",
    "supercalifragilisticexpialidocious", "pneumonoultramicroscopicsilicovolcanoconiosis",
    "a" * 120, "ab" * 80, "word " * 40, "x" * 300, "1" * 64, "!" * 50, "가" * 60, "日本" * 40,
    "The food was great.", "Not tasty and the texture was just nasty.", "Wow... Loved this place.",
    "<|endoftext|>", "<|im_start|>user\nhi<|im_end|>", "[CLS] already [SEP]", "[MASK]",
    "text<|im_end|>more", " <|im_start|> spaced ", "<|endoftext|><|endoftext|>",
]


def sentences(limit_each=150):
    out = []
    for name in ("amazon.jsonl", "yelp.jsonl"):
        path = ROOT / "resources" / "demo" / "sentiment-sentences" / name
        for line in path.read_text().splitlines()[:limit_each]:
            out.append(json.loads(line)["text"])
    return out


def corpus():
    base = list(HANDWRITTEN)
    variants = []
    for s in HANDWRITTEN[:120]:
        if s.strip():
            variants += [s.upper(), " " + s, s + "\n", s + "  " + s]
    out = []
    for s in base + sentences() + variants:
        if s not in out:
            out.append(s)
    return out


if __name__ == "__main__":
    print(len(corpus()))
